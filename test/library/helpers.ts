/**
 * What the library's tests share: whether this Node has node:sqlite (the SQLite tests
 * skip themselves only on Node 20), and the PostgreSQL server of `.ci/run`
 * (PEP_TEST_PG_URL), which CI must provide: there a missing server fails, never skips.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { scratch } from "../helpers/cli.js";
import { type FakeApi, startFakeApi } from "./fake-api.js";

export const hasSqlite = (): boolean => {
  const major = Number(process.versions.node.split(".")[0]);
  return major >= 22 && Boolean(process.getBuiltinModule?.("node:sqlite"));
};

export const PG_URL = process.env.PEP_TEST_PG_URL;

/** The roles of a team database that scripts/pg-server.sh makes (docs/library.md). */
const PG_OWNER = process.env.PEP_TEST_PG_OWNER;
const PG_READER = process.env.PEP_TEST_PG_READER;

/** In CI, a missing PostgreSQL server is a failure of the suite, not a skip. */
export function requirePgInCi(): void {
  it("has a PostgreSQL server to test against in CI (PEP_TEST_PG_URL, started by .ci/run)", () => {
    // A leg of .ci/run on another Node release leaves PostgreSQL to the leg that runs it
    // (PEP_TEST_PG_ELSEWHERE names it): the store does not change with the release.
    if (!process.env.CI || (!PG_URL && process.env.PEP_TEST_PG_ELSEWHERE)) return;
    expect(PG_URL, "CI is set but PEP_TEST_PG_URL is not: .ci/run starts PostgreSQL").toBeTruthy();
    expect(PG_OWNER && PG_READER, "scripts/pg-server.sh makes the owner and reader roles").toBeTruthy();
  });
}

/** `base` as `role` (no password: the test server trusts loopback). */
function asRole(base: string, role: string): string {
  const u = new URL(base);
  u.username = role;
  u.password = "";
  return u.toString();
}

/**
 * A schema for one test's library, set up as docs/library.md's DBA would: owned by the
 * owner role (which syncs and migrates), read by a role with USAGE and SELECT only (its
 * default privileges cover the tables the owner makes later). Without the roles (a server
 * started by hand), both URLs are PEP_TEST_PG_URL's user.
 */
export async function teamSchema(schema: string): Promise<{ ownerUrl: string; readUrl: string }> {
  const pg = (await import("pg")).default;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    if (!PG_OWNER || !PG_READER) {
      await admin.query(`CREATE SCHEMA "${schema}"`);
      const url = pgSchemaUrl(PG_URL!, schema);
      return { ownerUrl: url, readUrl: url };
    }
    await admin.query(`CREATE SCHEMA "${schema}" AUTHORIZATION "${PG_OWNER}"`);
    await admin.query(`GRANT USAGE ON SCHEMA "${schema}" TO "${PG_READER}"`);
    await admin.query(
      `ALTER DEFAULT PRIVILEGES FOR ROLE "${PG_OWNER}" IN SCHEMA "${schema}" GRANT SELECT ON TABLES TO "${PG_READER}"`,
    );
    return {
      ownerUrl: pgSchemaUrl(asRole(PG_URL!, PG_OWNER), schema),
      readUrl: pgSchemaUrl(asRole(PG_URL!, PG_READER), schema),
    };
  } finally {
    await admin.end();
  }
}

/** A fresh schema name per test file, so files running at once do not meet. */
export function pgSchemaUrl(base: string, schema: string): string {
  const u = new URL(base);
  u.searchParams.set("options", `-c search_path=${schema}`);
  return u.toString();
}

/**
 * The environment that points pep at a test's fake API (`api.base`, a key it takes) with
 * its library, config and cache in the test's scratch folder; `more` adds or overrides.
 */
export function libraryEnv(
  api: { base: string },
  tmp: { dir: string; env: Record<string, string> },
  more: Record<string, string> = {},
): Record<string, string> {
  return {
    ...tmp.env,
    PEP_BASE_URL: api.base,
    PEP_API_KEY: "k_test_123456789",
    ...more,
  };
}

/** A test's fake API, its scratch folder, and the environment pointing pep at both. */
export interface LibraryApi {
  readonly api: FakeApi;
  readonly tmp: ReturnType<typeof scratch>;
  readonly env: Record<string, string>;
}

/**
 * A fake API and a scratch folder (`prefix`), with libraryEnv's environment (`more` added),
 * made before the suite's tests (or before each, `each`) and closed and removed after.
 * Read its fields inside hooks and tests: they are made there.
 */
export function useLibraryApi(
  prefix: string,
  options: { more?: Record<string, string>; each?: boolean } = {},
): LibraryApi {
  let made: { api: FakeApi; tmp: ReturnType<typeof scratch>; env: Record<string, string> } | undefined;
  const setUp = async () => {
    const api = await startFakeApi();
    const tmp = scratch(prefix);
    made = { api, tmp, env: libraryEnv(api, tmp, options.more) };
  };
  const tearDown = async () => {
    await made?.api.close();
    made?.tmp.cleanup();
    made = undefined;
  };
  if (options.each) {
    beforeEach(setUp);
    afterEach(tearDown);
  } else {
    beforeAll(setUp);
    afterAll(tearDown);
  }
  const get = () => {
    if (!made) throw new Error("useLibraryApi: read inside a hook or a test");
    return made;
  };
  return {
    get api() {
      return get().api;
    },
    get tmp() {
      return get().tmp;
    },
    get env() {
      return get().env;
    },
  };
}
