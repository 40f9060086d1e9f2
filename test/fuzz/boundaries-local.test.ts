/**
 * Bounds outside the API's parameters, both sides: a `--file` target that cannot be
 * written is refused before any request (and a name at the file system's limit is still
 * written), and the flags of `pep sandbox` are checked before it listens.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSandboxFlags } from "../../src/commands/sandbox/sandbox-options.js";
import { UsageError } from "../../src/core/errors.js";
import { describeRun, expectDocumented, startFuzzer, type Fuzzer } from "./harness.js";

let fz: Fuzzer;
let vendorId: string;

beforeAll(async () => {
  fz = await startFuzzer();
  const res = await fetch(`${fz.cli.baseUrl}/vendors?limit=1`, { headers: { authorization: "Bearer sbx_full_key" } });
  vendorId = ((await res.json()) as { data: { id: string }[] }).data[0]!.id;
});
afterAll(() => fz.close());

const s = (n: number, c: string) => c.repeat(n);
const KEYED = { PEP_API_KEY: "sbx_full_key" };

describe("boundaries: --file", () => {
  it.each([
    ["an empty path", "", /--file needs a path/],
    ["a folder", "out", /--file: .*out is a folder/],
    ["a folder with a slash", "out/", /--file: .*out\/? is a folder/],
    ["a missing folder", "nosuch/dir/x.json", /--file: the folder .*nosuch\/dir does not exist/],
    ["a file as the folder", "key.txt/x.json", /--file: .*key\.txt is not a folder/],
    ["a name of 256 bytes", `out/${s(256, "n")}`, /--file: the name is too long/],
    ["a name of 256 bytes in 2-byte characters", `out/${s(128, "é")}`, /--file: the name is too long/],
  ])("%s exits 2 before any request", async (_name, file, message) => {
    for (const argv of [["health"], ["peptides", "list"], ["vendors", "get", vendorId], ["studies", "get", "1"]]) {
      const r = await fz.run([...argv, "--file", file], { env: KEYED });
      expectDocumented(r);
      expect(r.code, describeRun(r)).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.sent, describeRun(r)).toBe(0);
    }
  });

  it.each([
    ["a short name", "out/health.json"],
    ["a name of 255 bytes", `out/${s(255, "n")}`],
    ["a name of 254 bytes in 2-byte characters", `out/${s(127, "é")}`],
  ])("%s is written, and no temp file is left", async (_name, file) => {
    const r = await fz.run(["health", "--file", file, "-o", "json"]);
    expect(r.code, describeRun(r)).toBe(0);
    expect(r.sent).toBe(1);
    expect(JSON.parse(readFileSync(path.join(fz.dir, file), "utf8"))).toHaveProperty("status");
    expect(readdirSync(path.join(fz.dir, "out")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("boundaries: sandbox flags (checked before it listens)", () => {
  const inside: [string, Record<string, unknown>][] = [
    ["--port 0", { port: "0" }],
    ["--port 65535", { port: "65535" }],
    ["--seed 0", { seed: "0" }],
    ["--seed 2147483647", { seed: "2147483647" }],
    ["--scale 1", { scale: "1" }],
    ["--scale 1000", { scale: "1000" }],
    ["--latency 0", { latency: "0" }],
    ["--latency 600000", { latency: "600000" }],
    ["--fail-rate 0", { failRate: "0" }],
    ["--fail-rate 1", { failRate: "1" }],
    ["--rate-limit 1/86400", { rateLimit: "1/86400" }],
    ["--rate-limit 20/0.5", { rateLimit: "20/0.5" }],
  ];
  it.each(inside)("%s is accepted", (_name, opts) => {
    expect(() => parseSandboxFlags(opts)).not.toThrow();
  });

  const outside: [string, string[], RegExp][] = [
    ["--port -1", ["--port=-1"], /--port must be a whole number from 0 to 65535/],
    ["--port 65536", ["--port", "65536"], /--port must be a whole number from 0 to 65535/],
    ["--seed -1", ["--seed=-1"], /--seed must be a whole number from 0 to 2147483647/],
    ["--seed 2147483648", ["--seed", "2147483648"], /--seed must be a whole number from 0 to 2147483647/],
    ["--scale 0", ["--scale", "0"], /--scale must be a whole number from 1 to 1000/],
    ["--scale 1001", ["--scale", "1001"], /--scale must be a whole number from 1 to 1000/],
    ["--latency -1", ["--latency=-1"], /--latency must be a whole number from 0 to 600000/],
    ["--latency 600001", ["--latency", "600001"], /--latency must be a whole number from 0 to 600000/],
    ["--fail-rate -0.01", ["--fail-rate=-0.01"], /--fail-rate must be a number from 0 to 1/],
    ["--fail-rate 1.01", ["--fail-rate", "1.01"], /--fail-rate must be a number from 0 to 1/],
    ["--rate-limit 0/1", ["--rate-limit", "0/1"], /--rate-limit must be <requests>\/<seconds>, such as 20\/2/],
    ["--rate-limit 1/0", ["--rate-limit", "1/0"], /--rate-limit must be <requests>\/<seconds>/],
    ["--rate-limit 1/86401", ["--rate-limit", "1/86401"], /--rate-limit must be <requests>\/<seconds>/],
    ["--host empty", ["--host", " "], /--host must not be empty/],
  ];
  it.each(outside)("%s exits 2 naming the flag, without listening", async (_name, flags, message) => {
    const r = await fz.run(["sandbox", ...flags]);
    expect(r.code, describeRun(r)).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.out).not.toContain("base URL");
    expect(() =>
      parseSandboxFlags(
        Object.fromEntries([
          [
            flags[0]!.replace(/^--([a-z-]+).*$/, "$1").replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()),
            flags[1] ?? flags[0]!.split("=")[1],
          ],
        ]),
      ),
    ).toThrow(UsageError);
  });
});
