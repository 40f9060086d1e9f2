/**
 * The synthetic-data notice follows the answers, not the flag: a `pep sandbox` started in
 * another process and reached through PEP_BASE_URL gets it as `--sandbox` does, once a run
 * however many pages, never under -q, and a server whose answers are not marked gets none.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, isBuilt, scratch, inProcessPep } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

const NOTICE = /sandbox data, synthetic/g;
const notices = (err: string) => err.match(NOTICE)?.length ?? 0;

let server: ChildProcess;
let baseUrl: string;
const tmp = scratch("pep-notice-");

beforeAll(async () => {
  if (!isBuilt()) throw new Error("dist/ is missing: run `npm run build` before these tests");
  server = spawn(process.execPath, [BIN, "sandbox", "--port", "0", "--seed", "1"], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...tmp.env },
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      const m = /base URL: (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    server.on("exit", (code) => reject(new Error(`pep sandbox exited ${code}: ${out}`)));
  });
});
afterAll(async () => {
  // Wait for it to be gone: on Node 22 and later it writes its compile cache into the
  // folder as it exits, which would race the folder's removal.
  if (server && server.exitCode === null && server.signalCode === null) {
    const gone = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await gone;
  }
  tmp.cleanup();
});

describe("the synthetic-data notice", () => {
  it("is printed for a `pep sandbox` in another process reached through PEP_BASE_URL, once for many pages", async () => {
    const r = await inProcessPep(["peptides", "list", "--all", "--page-size", "10", "-o", "json"], {
      env: { ...tmp.env, PEP_BASE_URL: baseUrl },
    });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toHaveLength(40);
    expect(notices(r.err)).toBe(1);
    expect(r.err).toContain(baseUrl);
  });

  it("is printed for one item, and under -q too (synthetic data always says so)", async () => {
    const r = await inProcessPep(["peptides", "get", "drotarin-4", "-o", "json"], {
      env: { ...tmp.env, PEP_BASE_URL: baseUrl },
    });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).name).toBe("Drotarin-4");
    expect(notices(r.err)).toBe(1);
    const list = await inProcessPep(["studies", "list", "-q", "-o", "json"], {
      env: { ...tmp.env, PEP_BASE_URL: baseUrl },
    });
    expect(list.code, list.err).toBe(0);
    // -q takes away the "to continue" line, not the notice.
    expect(notices(list.err)).toBe(1);
    expect(list.err.split("\n").filter((l) => l !== "")).toHaveLength(1);
  });

  it("is printed once with the in-process --sandbox too", async () => {
    const r = await inProcessPep(["--sandbox", "studies", "list", "--all", "--page-size", "100", "-o", "ndjson"], {
      env: tmp.env,
    });
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim().split("\n")).toHaveLength(300);
    expect(notices(r.err)).toBe(1);
  });

  describe("against a server of its own", () => {
    let srv: TestServer;
    const item = (i: number) => ({ id: `p-${i}`, name: `P-${i}`, evidence: { level: "preclinical" } });
    beforeAll(async () => {
      srv = await startServer({
        // page 1 unmarked, page 2 marked: the notice comes from the answer that says so
        "/v1/peptides": (req, res) => {
          const second = req.query.get("cursor") === "two";
          sendJson(
            res,
            200,
            envelope([item(second ? 2 : 1)], {
              pagination: { has_more: !second, next_cursor: second ? null : "two" },
              meta: second ? { sandbox: true } : {},
            }),
          );
        },
        "/v1/studies": (_req, res) =>
          sendJson(
            res,
            200,
            envelope([], { pagination: { has_more: false, next_cursor: null }, meta: { sandbox: "true" } }),
          ),
      });
    });
    afterAll(() => srv.close());

    it("prints it when a later page is marked, and none for answers that are not marked as sandbox data", async () => {
      const env = { ...tmp.env, PEP_BASE_URL: `${srv.url}/v1` };
      const marked = await inProcessPep(["peptides", "list", "--all", "-o", "json"], { env });
      expect(marked.code, marked.err).toBe(0);
      expect(notices(marked.err)).toBe(1);
      const first = await inProcessPep(["peptides", "list", "--limit", "1", "-o", "json"], { env });
      expect(first.code, first.err).toBe(0);
      expect(notices(first.err)).toBe(0);
      const unmarked = await inProcessPep(["studies", "list", "-o", "json"], { env });
      expect(unmarked.code, unmarked.err).toBe(0);
      expect(notices(unmarked.err)).toBe(0);
    });
  });
});
