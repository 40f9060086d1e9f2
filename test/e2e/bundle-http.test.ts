/**
 * The bundle's HTTP client leaves two undici modules out and requires them from the
 * package when needed: the llhttp build for machines without WebAssembly SIMD
 * (UNDICI_NO_WASM_SIMD=1 takes that path here) and the fetch body helpers.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { ROOT, spawnPep } from "../helpers/cli.js";
import { useLoopback } from "../helpers/suite.js";

const suite = useLoopback(() => startSandbox({ port: 0 }), "pep-bundle-http-");
const { tmp } = suite;

const list = (env: Record<string, string>) =>
  spawnPep(["--base-url", suite.api.baseUrl, "peptides", "list", "-o", "json", "--limit", "3"], {
    env: { ...tmp.env, PEP_API_KEY: "sbx_full_key", PEP_NO_CACHE: "1", ...env },
    timeoutMs: 30_000,
  });

describe("the bundled HTTP client", () => {
  it("parses answers with the llhttp build for machines without WebAssembly SIMD", async () => {
    const simd = await list({});
    const plain = await list({ UNDICI_NO_WASM_SIMD: "1" });
    // Nothing on stderr but the synthetic-data notice of a sandbox answer: no warning from undici.
    expect(
      plain.err
        .replace(/^sandbox data, synthetic: not real research \(\S+\)\n/, "")
        .replace(/^to continue: pep .* --cursor=\S+\n/m, ""),
    ).toBe("");
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.out)).toHaveLength(3);
    expect(plain.out).toBe(simd.out);
  });

  it("requires the modules it leaves out from undici itself, not from elsewhere", () => {
    const chunks = path.join(ROOT, "dist", "chunks");
    const text = readdirSync(chunks)
      .filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(path.join(chunks, f), "utf8"))
      .join("\n");
    const required = [...text.matchAll(/__require(?:\$\d+)?\("(undici\/[^"]+)"\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(["undici/lib/llhttp/llhttp-wasm.js", "undici/lib/web/fetch/body.js"]));
    for (const spec of required) expect(() => readFileSync(path.join(ROOT, "node_modules", spec!))).not.toThrow();
  });
});
