/**
 * The key never shows: not on stdout or stderr (also with -v), not in the cache folder,
 * not in error messages (even when the server echoes it back), not in the config
 * listing. Only its last 4 characters are ever printed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPep, scratch, type PepRun } from "../helpers/cli.js";
import { envelope, sendJson, sendText, startServer, type TestServer } from "../helpers/server.js";

const KEY = "sk_live_TOPSECRET_d00d";
const PREFIX = "sk_live_TOPSECRET";
let srv: TestServer;
let tmp: ReturnType<typeof scratch>;

beforeAll(async () => {
  srv = await startServer({
    "/v1/": (req, res) =>
      String(req.headers.authorization).endsWith("nope")
        ? sendJson(res, 401, {
            error: {
              code: "invalid_key",
              message: `unknown key ${String(req.headers.authorization)}`,
              request_id: "r0",
            },
          })
        : sendJson(res, 200, envelope({ version: "1.0.0" }), { etag: '"idx1"' }),
    "/v1/vendors": (req, res) =>
      sendJson(
        res,
        200,
        envelope([{ id: "v1", name: "Alpha Labs" }], { pagination: { next_cursor: null, has_more: false } }),
        { etag: `"v-${req.query.get("limit")}"` },
      ),
    "/v1/echo401": (req, res) =>
      sendJson(res, 401, {
        error: {
          code: "invalid_key",
          message: `Key ${req.headers.authorization ?? req.headers["x-api-key"]} is not valid`,
          request_id: "r1",
        },
      }),
    "/v1/echo500": (req, res) =>
      sendText(res, 500, `<html>bad ${String(req.headers.authorization)}</html>`, "text/html"),
    "/v1/echo200": (req, res) => sendText(res, 200, `not json ${String(req.headers.authorization)}`, "text/plain"),
  });
});
afterAll(() => srv.close());
beforeEach(() => {
  tmp = scratch("pep-secrets-");
});
afterEach(() => tmp.cleanup());

const pep = (argv: string[], options: { env?: Record<string, string>; stdin?: string; tty?: boolean } = {}) =>
  runPep(["--base-url", `${srv.url}/v1`, "--no-retry", ...argv], {
    env: { ...tmp.env, PEP_API_KEY: KEY, ...options.env },
    stdin: options.stdin,
    tty: options.tty,
  });

function expectClean(r: PepRun): void {
  expect(r.out).not.toContain(PREFIX);
  expect(r.err).not.toContain(PREFIX);
}

function filesUnder(dir: string): string[] {
  let out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = path.join(dir, e);
    out = statSync(p).isDirectory() ? [...out, ...filesUnder(p)] : [...out, p];
  }
  return out;
}

describe("the key never shows", () => {
  it("not with -v: request headers are logged redacted to the last 4 characters", async () => {
    for (const header of ["bearer", "x-api-key"]) {
      const r = await pep(["-v", "--auth-header", header, "vendors", "list", "-o", "json"]);
      expect(r.code, r.err).toBe(0);
      expectClean(r);
      expect(r.err).toMatch(/> GET .*\/v1\/vendors/);
      expect(r.err).toContain("d00d");
    }
  });

  it("not in the cache folder, whose answers were stored", async () => {
    expect((await pep(["vendors", "list", "-o", "json"])).code).toBe(0);
    expect((await pep(["index", "-o", "json"])).code).toBe(0);
    expect((await pep(["-v", "vendors", "list", "-o", "json"])).err).toMatch(/304|from cache|< 200/);
    const files = filesUnder(tmp.env.PEP_CACHE_DIR!);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(readFileSync(f, "utf8")).not.toContain(PREFIX);
      expect(path.basename(f)).not.toContain(PREFIX);
    }
  });

  it("not in error messages, even when the server echoes it", async () => {
    for (const p of ["/echo401", "/echo500", "/echo200"]) {
      for (const format of ["table", "json"]) {
        const r = await pep(["-v", "api", p, "-o", format]);
        expect(r.code, `${p} ${format}: ${r.err}`).not.toBe(0);
        expectClean(r);
      }
    }
  });

  it("not in auth and config output, in any format", async () => {
    const login = await pep(["auth", "login", "--with-key"], { stdin: KEY, env: { PEP_API_KEY: "" } });
    expect(login.code, login.err).toBe(0);
    expectClean(login);
    const runs = [
      await pep(["auth", "status", "-o", "json"]),
      await pep(["auth", "status", "-o", "table"], { tty: true }),
      await pep(["-v", "auth", "status", "-o", "csv"], { env: { PEP_API_KEY: "" } }),
      await pep(["config", "list", "-o", "json"]),
      await pep(["config", "list", "-o", "table"], { tty: true }),
      await pep(["config", "list", "-o", "ndjson"]),
      await pep(["config", "get", "api_key"]),
      await pep(["auth", "logout"]),
    ];
    for (const r of runs) {
      expect(r.code, r.err).toBe(0);
      expectClean(r);
    }
    expect(runs[0]!.out).toContain("…d00d");
  });

  it("not when the key is refused at login or status, though the server echoes it", async () => {
    const bad = "sk_live_TOPSECRET_nope";
    const login = await runPep(["--base-url", `${srv.url}/v1`, "auth", "login", "--with-key"], {
      env: tmp.env,
      stdin: bad,
    });
    expect(login.code).toBe(3);
    expect(login.err).toContain("…nope");
    expectClean(login);
    for (const format of ["json", "table"]) {
      const status = await pep(["-v", "auth", "status", "-o", format], { env: { PEP_API_KEY: bad } });
      expect(status.code).toBe(3);
      expectClean(status);
    }
  });
});
