/**
 * Proxies, in-process against loopback servers and a real loopback proxy: a proxy
 * password given with `--proxy` never appears in what pep prints: the resume command of
 * a list cut short (readable and JSON), hints, `-v` lines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { startProxy, type TestProxy } from "../helpers/proxy.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

const PASSWORD = "S3cretPass";
let api: TestServer;
let proxy: TestProxy;
let tmp: ReturnType<typeof scratch>;

beforeAll(async () => {
  tmp = scratch("pep-hostile-proxy-");
  proxy = await startProxy({ auth: `alice:${PASSWORD}` });
  api = await startServer({
    "/v1/peptides": (req, res) => {
      if (req.query.get("cursor") === "c2") {
        sendJson(res, 503, { error: { code: "unavailable", message: "try later", request_id: "req_1" } });
        return;
      }
      sendJson(res, 200, envelope([{ id: "p1", name: "P1" }], { pagination: { next_cursor: "c2", has_more: true } }));
    },
  });
});
afterAll(async () => {
  await api.close();
  await proxy.close();
  tmp.cleanup();
});

const pep = (argv: readonly string[], env: Record<string, string> = {}) =>
  runPep(argv, { env: { ...tmp.env, PEP_BASE_URL: `${api.url}/v1`, ...env } });

describe("a proxy password is never printed", () => {
  const cut = ["peptides", "list", "--all", "--page-size", "1", "--no-retry"];

  it.each([
    ["--proxy <url>", (url: string) => ["--proxy", url]],
    ["--proxy=<url>", (url: string) => [`--proxy=${url}`]],
  ])("%s: the resume command and its hint, readable and JSON, and -v lines", async (_name, flag) => {
    const url = `http://alice:${PASSWORD}@127.0.0.1:${proxy.port}`;
    const before = proxy.seen.length;
    for (const format of ["table", "json"]) {
      const r = await pep([...cut, ...flag(url), "-o", format, "-v"]);
      expect(r.code, r.err).toBe(6);
      // it did go through the proxy, with the password
      expect(proxy.seen.length).toBeGreaterThan(before);
      expect(r.out + r.err).not.toContain(PASSWORD);
      const resume =
        format === "json"
          ? (JSON.parse(r.err.split("\n").find((l) => l.startsWith('{"error"'))!) as { resume: string }).resume
          : r.err
              .split("\n")
              .find((l) => l.startsWith("to resume: "))!
              .slice("to resume: ".length);
      expect(resume).toContain(`alice:***@127.0.0.1:${proxy.port}`);
      expect(resume).toContain("--cursor c2");
      expect(r.err).toMatch(/password is shown as \*\*\*/);
    }
  });

  it("a password holding @ or %-escapes is hidden whole (a proxy that asks for none)", async () => {
    const open = await startProxy();
    const url = `http://alice:p%40ss@wd@127.0.0.1:${open.port}`;
    const r = await pep([...cut, "--proxy", url]).finally(() => open.close());
    expect(r.code, r.err).toBe(6);
    expect(r.err).not.toContain("p%40ss");
    expect(r.err).not.toContain("wd@");
    expect(r.err).toContain("alice:***@127.0.0.1");
  });
});
