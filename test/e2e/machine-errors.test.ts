/**
 * Errors a machine can read (docs/cli.md, "Exit codes" and "Failures in detail"): with an explicit JSON format (-o json,
 * -o ndjson, PEP_OUTPUT or the profile's `output`) every failure is one JSON object on
 * stderr; without one, readable lines, also when stdout is a pipe. The real executable,
 * against the sandbox, on pipes and on a pseudo-terminal.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { scratch, inProcessPep } from "../helpers/cli.js";
import { spawnPepTty } from "../helpers/hostile-api.js";
import { unusedPort } from "../helpers/server.js";

interface ErrorObject {
  error: { code: string; message: string; status?: number; request_id?: string };
  exit_code: number;
  hints: string[];
  resume: string | null;
  id?: string;
}

const tmp = scratch("pep-machine-errors-");
let sb: Awaited<ReturnType<typeof startSandbox>>;
const env = (extra: Record<string, string> = {}) => ({ ...tmp.env, PEP_API_KEY: "sbx_full_key", ...extra });
const pep = (argv: string[], extra: Record<string, string> = {}) =>
  inProcessPep(["--base-url", sb.baseUrl, ...argv], { env: env(extra), timeoutMs: 20_000 });

/** The one JSON object on stderr (the sandbox's notice aside), checked for its shape. */
function only(stderr: string): ErrorObject {
  const lines = stderr.split("\n").filter((l) => l !== "" && !l.startsWith("sandbox data, synthetic"));
  expect(lines, stderr).toHaveLength(1);
  const o = JSON.parse(lines[0]!) as ErrorObject;
  expect(typeof o.error.code).toBe("string");
  expect(typeof o.error.message).toBe("string");
  expect(typeof o.exit_code).toBe("number");
  expect(Array.isArray(o.hints)).toBe(true);
  expect(o.resume === null || typeof o.resume === "string").toBe(true);
  return o;
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sb.close();
  tmp.cleanup();
});

describe("with -o json or ndjson, every failure is one JSON object on stderr", () => {
  it("an API error keeps the envelope's fields and adds the status and exit code", async () => {
    const r = await pep(["peptides", "get", "no-such-peptide", "-o", "json"]);
    expect(r.code).toBe(4);
    const o = only(r.err);
    expect(o.error).toMatchObject({ code: "not_found", status: 404 });
    expect(o.error.request_id).toMatch(/^req_/);
    expect(o.exit_code).toBe(4);
    expect(o.resume).toBeNull();
  });

  it("a usage error found by pep, and one found while parsing the words", async () => {
    const bad = await pep(["peptides", "list", "--limit", "0", "-o", "ndjson"]);
    expect(bad.code).toBe(2);
    expect(only(bad.err)).toMatchObject({ error: { code: "usage_error" }, exit_code: 2 });
    const parse = await pep(["peptides", "list", "--no-such-flag", "-ojson"]);
    expect(parse.code).toBe(2);
    const o = only(parse.err);
    expect(o.error).toEqual({ code: "usage_error", message: "unknown option '--no-such-flag'" });
    expect(o.hints).toEqual(["Run `pep peptides list --help` for usage."]);
    const command = await pep(["peptidez", "--output=json"]);
    expect(command.code).toBe(2);
    expect(only(command.err).error.message).toContain("unknown command 'peptidez'");
  });

  it("a network error, with the format from PEP_OUTPUT", async () => {
    const port = await unusedPort();
    const r = await inProcessPep(["--base-url", `http://127.0.0.1:${port}/v1`, "peptides", "list", "--retries", "0"], {
      env: env({ PEP_OUTPUT: "json" }),
    });
    expect(r.code).toBe(6);
    expect(only(r.err)).toMatchObject({ error: { code: "network_error" }, exit_code: 6 });
  });

  it("the profile's output key counts as asking for JSON", async () => {
    const dir = path.join(tmp.dir, "profile-config");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(dir, "config.json"), JSON.stringify({ profiles: { default: { output: "ndjson" } } }), {
      mode: 0o600,
    });
    const r = await pep(["peptides", "get", "no-such-peptide"], { PEP_CONFIG_DIR: dir });
    expect(r.code).toBe(4);
    expect(only(r.err).error.code).toBe("not_found");
  });

  it("a list cut short carries the command that resumes it; a --cursor the API refused is not offered back", async () => {
    const refused = await pep(["studies", "list", "--cursor", "not-a-cursor", "-o", "json"]);
    expect(refused.code).toBe(2);
    const o = only(refused.err);
    expect(o.resume).toBeNull();
    expect(o.hints.join(" ")).toContain("did not accept --cursor=not-a-cursor");
  });
});

describe("without an explicit JSON format, errors are lines for a person", () => {
  it("on a pipe, although stdout gets JSON", async () => {
    const r = await pep(["peptides", "get", "no-such-peptide"]);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/^error: .* \(HTTP 404, not_found, request req_\w+\)$/m);
    expect(r.err).not.toContain("{");
    const parse = await pep(["peptides", "list", "--no-such-flag"]);
    expect(parse.err).toMatch(/^error: unknown option '--no-such-flag'$/m);
    expect(parse.err).toMatch(/^hint: Run `pep peptides list --help` for usage\.$/m);
  });

  it("on a terminal, and as JSON there too when asked", async () => {
    const r = await spawnPepTty(["--base-url", sb.baseUrl, "peptides", "get", "no-such-peptide"], env());
    expect(r.code).toBe(4);
    expect(r.out).toMatch(/error: .*HTTP 404, not_found/);
    const asked = await spawnPepTty(
      ["--base-url", sb.baseUrl, "peptides", "get", "no-such-peptide", "-o", "json"],
      env(),
    );
    expect(asked.code).toBe(4);
    const line = asked.out.split(/\r?\n/).find((l) => l.startsWith("{"));
    expect(JSON.parse(line!)).toMatchObject({ error: { code: "not_found" }, exit_code: 4 });
  });
});

describe("a default format from the environment that the command cannot print", () => {
  it("PEP_OUTPUT=bibtex on a command that is not about studies falls back to its default", async () => {
    const r = await pep(["peptides", "list", "--limit", "2"], { PEP_OUTPUT: "bibtex" });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toHaveLength(2);
    const studies = await pep(["studies", "list", "--limit", "1"], { PEP_OUTPUT: "bibtex" });
    expect(studies.out).toMatch(/^@/m);
    const explicit = await pep(["peptides", "list", "-o", "bibtex"]);
    expect(explicit.code).toBe(2);
  });
});
