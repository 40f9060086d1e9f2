/**
 * The API key is hidden where it stands as a whole token (a value, a header, a part of a
 * URL, a token of a field name), never inside another word, by one function that the CLI and
 * `pep mcp` share; a value shorter than 12 characters is refused as not a key (exit 2,
 * before any request, without printing it). The sandbox's keys are keys.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactKey } from "../../src/http/key.js";
import { cleanDeep, redactor } from "../../src/mcp/result.js";
import { SANDBOX_KEYS, startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { inProcessPep } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

let sb: Sandbox;
let api: TestServer;
let dir: string;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  api = await startServer({ "*": (_req, res) => sendJson(res, 200, envelope([])) });
  dir = mkdtempSync(path.join(os.tmpdir(), "pep-keys-"));
});
afterAll(async () => {
  await sb.close();
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});
const env = (more: Record<string, string> = {}) => ({
  PEP_CONFIG_DIR: path.join(dir, "config"),
  PEP_CACHE_DIR: path.join(dir, "cache"),
  ...more,
});

describe("a value too short to be a key", () => {
  for (const [where, key] of [
    ["PEP_API_KEY", "dev"],
    ["PEP_API_KEY", "id"],
    ["--api-key-file", "short_key"],
  ] as const) {
    it(`${where} ${JSON.stringify(key)}: exit 2 before any request, the value not printed`, async () => {
      const file = path.join(dir, "key.txt");
      writeFileSync(file, `${key}\n`);
      const before = api.requests.length;
      const words = ["vendors", "list", "--base-url", `${api.url}/v1`];
      const r =
        where === "PEP_API_KEY"
          ? await inProcessPep(words, { env: env({ PEP_API_KEY: key }) })
          : await inProcessPep(["--api-key-file", file, ...words], { env: env() });
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(
        new RegExp(
          `^error: ${where}.*: that is not an API key \\(${key.length} characters; a key has at least 12\\)$`,
          "m",
        ),
      );
      expect(r.err).not.toContain(`${key}\n`);
      expect(api.requests.length).toBe(before);
    });
  }

  it("the sandbox's keys are keys: sbx_full_key (12 characters), sbx_research_key, sbx_vendors_key", async () => {
    for (const [key, command] of [
      [SANDBOX_KEYS.full, ["vendors", "list"]],
      [SANDBOX_KEYS.vendors, ["vendors", "list"]],
      [SANDBOX_KEYS.research, ["studies", "list"]],
    ] as const) {
      const r = await inProcessPep([...command, "--limit", "1", "-o", "json", "--base-url", sb.baseUrl], {
        env: env({ PEP_API_KEY: key }),
      });
      expect(r.code, `${key}: ${r.err}`).toBe(0);
    }
    expect(SANDBOX_KEYS.full).toHaveLength(12);
  });
});

describe("whole-token redaction, the same in the CLI and in pep mcp", () => {
  const key = "sk_live_0123456789abcd";
  const data = {
    development_stage: "phase 2",
    id: "bpc-157",
    note: `echoed: Bearer ${key}`,
    link: `https://x.test/a?api_key=${encodeURIComponent(key)}&b=1`,
    word: `pre${key}post`,
    [`${key}_field`]: 1,
  };

  it("hides the key as a value, a header, a URL part or a token of a field name; never inside a word", () => {
    const cleaned = cleanDeep(data, redactor(key, "<redacted>")) as Record<string, string>;
    expect(cleaned.development_stage).toBe("phase 2");
    expect(cleaned.id).toBe("bpc-157");
    expect(cleaned.note).toBe("echoed: Bearer <redacted>");
    expect(cleaned.link).toBe("https://x.test/a?api_key=<redacted>&b=1");
    expect(cleaned.word).toBe(`pre${key}post`);
    expect(Object.keys(cleaned)).toContain("<redacted>_field");
    // The mcp redactor is the CLI's function.
    for (const text of Object.values(data).map(String))
      expect(redactor(key, "X")(text)).toBe(redactKey(text, key, "X"));
  });

  it("a short value was never a key: `dev` or `id` cannot rename development_stage or id", () => {
    for (const short of ["dev", "id"]) {
      const cleaned = cleanDeep(data, redactor(short, "<redacted>")) as Record<string, unknown>;
      expect(Object.keys(cleaned)).toEqual(Object.keys(data));
      expect(cleaned.development_stage).toBe("phase 2");
    }
  });
});
