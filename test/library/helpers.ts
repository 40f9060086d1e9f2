/**
 * What the library's tests share: whether this Node has node:sqlite (the SQLite tests
 * skip themselves only on Node 20), and the PostgreSQL server of `.ci/run`
 * (PEP_TEST_PG_URL), which CI must provide: there a missing server fails, never skips.
 */
import { expect, it } from "vitest";

export const hasSqlite = (): boolean => {
  const major = Number(process.versions.node.split(".")[0]);
  return major >= 22 && Boolean(process.getBuiltinModule?.("node:sqlite"));
};

export const PG_URL = process.env.PEP_TEST_PG_URL;

/** In CI, a missing PostgreSQL server is a failure of the suite, not a skip. */
export function requirePgInCi(): void {
  it("has a PostgreSQL server to test against in CI (PEP_TEST_PG_URL, started by .ci/run)", () => {
    if (process.env.CI) expect(PG_URL, "CI is set but PEP_TEST_PG_URL is not: .ci/run starts PostgreSQL").toBeTruthy();
  });
}

/** A fresh schema name per test file, so files running at once do not meet. */
export function pgSchemaUrl(base: string, schema: string): string {
  const u = new URL(base);
  u.searchParams.set("options", `-c search_path=${schema}`);
  return u.toString();
}
