/**
 * Hostile API text on stderr, through the real executable: an error envelope whose
 * `message`, `code` and `request_id` carry terminal control sequences gives one inert
 * error line with the documented exit code (and the readable text, the status and the
 * request id still there, even when the message leaves an escape sequence open); with
 * -o json the envelope itself, exact once parsed, with nothing raw that a terminal acts
 * on; a request id header with C1 bytes in --verbose lines; the resume command for a
 * hostile cursor, inert and read back exactly by the shell.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import { errorLineOf } from "../helpers/fault-api.js";
import {
  expectInert,
  HOSTILE_CURSOR,
  HOSTILE_ERROR,
  OPEN_ERROR,
  startHostileApi,
  UNSAFE_HUMAN,
} from "../helpers/hostile-api.js";
import { useLoopback } from "../helpers/suite.js";

const suite = useLoopback(() => startHostileApi(), "pep-hostile-err-");
const { tmp } = suite;

const env = () => ({ ...tmp.env, PEP_BASE_URL: suite.api.baseUrl, PEP_API_KEY: "sk_test_hostile_4242" });
const pep = (argv: readonly string[]) => inProcessPep([...argv, "--no-retry"], { env: env() });

describe("error lines", () => {
  const cases: Array<[string, string[], number, number]> = [
    ["404 on peptides get", ["peptides", "get", "broken"], 404, 4],
    ["400 on vendors get", ["vendors", "get", "broken"], 400, 2],
    ["503 in the middle of a list", ["studies", "list", "--search", "cut", "--all"], 503, 6],
  ];
  it.each(cases)(
    "%s: one inert error line naming the message, the code and the request id",
    async (_name, argv, status, exit) => {
      for (const format of ["table", "csv", "tsv"]) {
        const r = await pep([...argv, "-o", format]);
        expect(r.code, `${format}: ${r.err}`).toBe(exit);
        const visible = expectInert(r.err, `${format} stderr`, { leaks: false });
        for (const line of visible.split("\n").filter((l) => l.startsWith("error: "))) expectInert(line, "error line");
        const line = errorLineOf(
          visible
            .split("\n")
            .filter((l) => !l.startsWith("to resume: "))
            .join("\n"),
        );
        expect(line).toMatch(
          new RegExp(
            `^error: ERRMESSAGE .*ERRMESSAGE-END \\(HTTP ${status}, ERRCODE .*ERRCODE-END, request ERRREQ .*ERRREQ-END\\)$`,
          ),
        );
        expect(line).toContain("click");
      }
    },
  );

  it("a message that opens an escape sequence and never closes it keeps the status and request id", async () => {
    const r = await pep(["peptides", "get", "open", "-o", "table"]);
    expect(r.code, r.err).toBe(4);
    const line = errorLineOf(expectInert(r.err));
    expect(line).toBe("error: Nope (HTTP 404, bad, request req_open)");
  });

  it("-o json and ndjson: the envelope as the API sent it, with every control character escaped", async () => {
    for (const format of ["json", "ndjson"]) {
      const r = await pep(["peptides", "get", "broken", "-o", format]);
      expect(r.code, r.err).toBe(4);
      expect(r.out).toBe("");
      // JSON is data: nothing raw, the C1 controls and bidi overrides as \u escapes too
      expect(UNSAFE_HUMAN.test(r.err.trimEnd()), JSON.stringify(r.err)).toBe(false);
      expect(r.err).toContain("\\u009b2J");
      expect(r.err).toContain("\\u202e");
      errorLineOf(r.err);
      expect(jsonError(r.err)).toEqual({ ...HOSTILE_ERROR, status: 404 });
    }
    const open = await pep(["peptides", "get", "open", "-o", "json"]);
    expect(jsonError(open.err)).toEqual({ ...OPEN_ERROR, status: 404 });
  });

  it("--verbose: a request id header with C1 bytes is cleaned in the response line", async () => {
    const r = await pep(["peptides", "get", "x", "-o", "table", "--verbose"]);
    expect(r.code, r.err).toBe(0);
    const err = expectInert(r.err, "verbose stderr");
    // the header's bytes read as latin1: U+009B and U+009D (CSI and OSC) are gone with their parameters
    expect(err).toMatch(/^< 200 .*, request req\S*-END$/m);
    expect(err).not.toContain("2J");
    expect(expectInert(r.out)).toContain("PEPNAME0-END");
  });
});

describe("the resume command for a hostile cursor", () => {
  it("prints inert, ANSI-C quoted, and bash reads back the exact cursor without running anything in it", async () => {
    for (const format of ["table", "json"]) {
      const r = await pep(["studies", "list", "--search", "cut", "--all", "-o", format]);
      expect(r.code, r.err).toBe(6);
      // the cursor must stay exact, so its payload is shown escaped, not removed
      const err = expectInert(r.err, `${format} stderr`, { leaks: false });
      const command = resumeCommandOf(err);
      expect(command, err).toBeDefined();
      expect(command).toMatch(/^pep studies list --search cut --all -o (table|json) --no-retry \$'--cursor=/);
      const words = spawnSync("bash", ["-c", `printf '%s\\0' ${command!}`], { cwd: tmp.dir, encoding: "utf8" });
      expect(words.status, words.stderr).toBe(0);
      const argv = words.stdout.split("\0").slice(0, -1);
      expect(argv.slice(-1)).toEqual([`--cursor=${HOSTILE_CURSOR}`]);
      expect(existsSync(path.join(tmp.dir, "pwned"))).toBe(false);
    }
  });

  it("run again, the resume command sends that cursor byte for byte", async () => {
    const first = await pep(["studies", "list", "--search", "cut", "--all", "-o", "ndjson"]);
    const command = resumeCommandOf(first.err)!;
    const words = spawnSync("bash", ["-c", `printf '%s\\0' ${command}`], { encoding: "utf8" });
    const argv = words.stdout.split("\0").slice(1, -1);
    const before = suite.api.requests.length;
    const again = await inProcessPep(argv, { env: env() });
    expect(again.code).toBe(6);
    expect(suite.api.requests[before]!.query.get("cursor")).toBe(HOSTILE_CURSOR);
  });
});

/** The `error` of pep's JSON error object on stderr. */
function jsonError(stderr: string): unknown {
  return (JSON.parse(stderr.split("\n").find((l) => l.startsWith("{"))!) as { error: unknown }).error;
}

/** The resume command: the `to resume:` line, or the JSON error object's `resume`. */
function resumeCommandOf(stderr: string): string | undefined {
  const json = stderr.split("\n").find((l) => l.startsWith("{"));
  if (json) return (JSON.parse(json) as { resume?: string }).resume ?? undefined;
  return stderr
    .split("\n")
    .find((l) => l.startsWith("to resume: "))
    ?.slice("to resume: ".length);
}
