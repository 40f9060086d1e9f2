/**
 * Passwords in a PostgreSQL library's URL never print: in the user part (also with an
 * unencoded `@`), as `?password=` or `?sslpassword=`, they are masked in connection
 * errors, `-v`, `pep config list` and `get`; a user name alone stays, so what is printed
 * still connects as that user. A URL pep cannot read as one host is refused before
 * anything connects or looks a name up. In-process, against a loopback port nothing
 * listens on.
 */
import { createServer } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const sb = useSandboxCli();
let closedPort = 0;

beforeAll(async () => {
  // A port that was free a moment ago: connecting to it is refused at once.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closedPort = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const urls = () => [
  `postgres://pep:hunter2@127.0.0.1:${closedPort}/lib`,
  `postgres://pep:hun@ter2@127.0.0.1:${closedPort}/lib`,
  `postgres://pep@127.0.0.1:${closedPort}/lib?password=hunter2`,
  `postgres://pep@127.0.0.1:${closedPort}/lib?sslmode=disable&sslpassword=hunter2&PASSWORD=hunter2`,
];

describe("a password in the library's URL", () => {
  it("is masked in the connection error and in -v, the user name kept", async () => {
    for (const url of urls()) {
      const r = await sb.pep(["-v", "sql", "--db", url, "SELECT 1"]);
      expect(r.code, r.err).not.toBe(0);
      expect(r.err).toContain(`pep`);
      expect(r.err).toMatch(new RegExp(`pep(:\\*\\*\\*)?@127\\.0\\.0\\.1:${closedPort}`));
      expect(r.out + r.err).not.toContain("hunter2");
      expect(r.out + r.err).not.toContain("ter2");
    }
  });

  it("is masked by pep config list and get; the stored value keeps it", async () => {
    const tmp = scratch("pep-db-cred-");
    try {
      for (const url of urls()) {
        const set = await runPep(["config", "set", "db", url], { env: tmp.env });
        expect(set.code, set.err).toBe(0);
        for (const argv of [
          ["config", "list"],
          ["config", "list", "-o", "json"],
          ["config", "get", "db"],
        ]) {
          const r = await runPep(argv, { env: tmp.env });
          expect(r.code, r.err).toBe(0);
          expect(r.out + r.err).not.toContain("hunter2");
          expect(r.out).toContain("pep");
        }
      }
    } finally {
      tmp.cleanup();
    }
  });
});

describe("a URL pep cannot read as one host", () => {
  it.each([
    ["postgres://pep:pa/ss@db.invalid/lib", "does not parse"],
    ["postgres://pep:12/ss@db.invalid/lib", "an @ follows its host"],
    ["postgres://pep:1?x@db.invalid/lib", "an @ follows its host"],
    ["postgres://h1.invalid,h2.invalid/lib", "several hosts"],
  ])("%s: refused (exit 2) before anything connects", async (url, why) => {
    const r = await sb.pep(["sql", "--db", url, "SELECT 1"]);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain(why);
    expect(r.err).not.toMatch(/ENOTFOUND|EAI_AGAIN|getaddrinfo/);
    expect(r.err).not.toContain("pa/ss");
  });
});
