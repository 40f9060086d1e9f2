/**
 * The output pipeline where its features meet, in-process through `run(argv, deps)`:
 * every format × sink (stdout, --file) × with and without --jq × failure class (an API
 * error on a later page, a malformed page, a connection reset, a write error, Ctrl-C),
 * each checked against the same invariants:
 * - what reached the sink is a whole prefix: exactly what a healthy run prints for the
 *   items before the failure (the file target untouched, no temp file left);
 * - the exit code is the class's;
 * - with -o json or ndjson the failure is one JSON object on stderr;
 * - the resume command's cursor starts right after the last item that went out, and
 *   running it prints the rest.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { testIO } from "../../src/core/io.js";
import { resumeArgv, startFaultApi, studyItems, faults, type FaultApi } from "../helpers/fault-api.js";
import type { Handler } from "../helpers/server.js";

const TOTAL = 23;
const PAGE = 5;
/** The failure comes with the third page: two whole pages (10 items) went out before it. */
const FAIL_AT = 10;

const FORMATS = ["table", "json", "ndjson", "csv", "tsv", "ids", "bibtex", "ris", "csl-json"] as const;
type Format = (typeof FORMATS)[number];
const JQ: Partial<Record<Format, string>> = { json: "[.[] | {id, year: .publication_year}]", ndjson: ".id" };
const SINKS = ["stdout", "file"] as const;
type Sink = (typeof SINKS)[number];

type FailureClass = "api-error" | "malformed" | "reset" | "write-error" | "sigint";
const CLASSES: readonly FailureClass[] = ["api-error", "malformed", "reset", "write-error", "sigint"];
const EXIT_OF: Record<FailureClass, number> = {
  "api-error": 6,
  malformed: 6,
  reset: 6,
  "write-error": 1,
  sigint: 130,
};

let api: FaultApi;
let dir: string;
/** A small file system that fills up, for the file sink's write error (root only). */
let full: string | undefined;

beforeAll(async () => {
  api = await startFaultApi({ total: TOTAL });
  dir = mkdtempSync(path.join(os.tmpdir(), "pep-combo-"));
  full = mountFullDisk(path.join(dir, "full"));
});

afterAll(async () => {
  await api.close();
  if (full) execFileSync("umount", [full]);
  rmSync(dir, { recursive: true, force: true });
});

function mountFullDisk(at: string): string | undefined {
  mkdirSync(at);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4k", "tmpfs", at], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  // Room for a directory entry and not much else: the first page's output does not fit.
  writeFileSync(path.join(at, "target.out"), "previous\n");
  try {
    writeFileSync(path.join(at, "filler"), Buffer.alloc(4096));
  } catch {
    /* full already */
  }
  return at;
}

interface Case {
  format: Format;
  sink: Sink;
  jq: string | undefined;
}

function argvOf(c: Case, file?: string): string[] {
  return [
    "studies",
    "list",
    "--all",
    "--page-size",
    String(PAGE),
    "-o",
    c.format,
    "--retries",
    "0",
    "--no-cache",
    "--base-url",
    api.baseUrl,
    ...(c.jq === undefined ? [] : ["--jq", c.jq]),
    ...(file === undefined ? [] : ["--file", file]),
  ];
}

/** A stdout that takes `room` bytes, then fails every write with ENOSPC, as `> /full/disk` would. */
function fullStdout(room: number): { stream: Writable; text(): string } {
  const kept: Buffer[] = [];
  let taken = 0;
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (taken + chunk.length > room) {
        done(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" }));
        return;
      }
      taken += chunk.length;
      kept.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(kept).toString("utf8") };
}

async function pep(argv: string[], o: { stdout?: ReturnType<typeof fullStdout>; signal?: AbortSignal } = {}) {
  const captured = testIO({
    env: { PEP_CONFIG_DIR: path.join(dir, "config"), PEP_CACHE_DIR: path.join(dir, "cache") },
    cwd: dir,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  const io = o.stdout ? { ...captured, stdout: o.stdout.stream } : captured;
  const code = await run(argv, { io });
  return { code, out: o.stdout ? o.stdout.text() : captured.out(), err: captured.err() };
}

/** What a healthy run prints for the whole list and for the items before the failure. */
const healthy = new Map<string, { whole: string; before: string }>();
async function healthyOutput(c: Case): Promise<{ whole: string; before: string }> {
  const key = `${c.format}|${c.jq}`;
  const known = healthy.get(key);
  if (known) return known;
  api.heal();
  const whole = await pep(argvOf({ ...c, sink: "stdout" }));
  expect(whole.code, whole.err).toBe(0);
  const first = argvOf({ ...c, sink: "stdout" }).map((w) => (w === "--all" ? "--limit" : w));
  first.splice(first.indexOf("--limit") + 1, 0, String(FAIL_AT));
  const before = await pep(first);
  expect(before.code, before.err).toBe(0);
  const result = { whole: whole.out, before: withoutCloser(c, before.out) };
  healthy.set(key, result);
  return result;
}

/** A JSON array streamed item by item and cut short has no closing bracket yet. */
function withoutCloser(c: Case, text: string): string {
  if (c.jq !== undefined) return text;
  if (c.format === "json" || c.format === "csl-json") return text.replace(/\n\]\n$/, "");
  return text;
}

function failure(kind: FailureClass, controller: AbortController): Handler | undefined {
  switch (kind) {
    case "api-error":
      return faults.status(503);
    case "malformed":
      return faults.truncated(studyItems(TOTAL), 30);
    case "reset":
      return faults.reset();
    case "sigint":
      // The request for the page after the last delivered one: the user presses Ctrl-C.
      return (_req, res) => {
        controller.abort();
        res.on("close", () => {});
      };
    case "write-error":
      return undefined;
  }
}

const cases: Array<Case & { kind: FailureClass }> = [];
for (const format of FORMATS)
  for (const sink of SINKS)
    for (const jq of [undefined, ...(JQ[format] === undefined ? [] : [JQ[format]])])
      for (const kind of CLASSES) cases.push({ format, sink, jq, kind });

describe("the output pipeline under failure: format × sink × --jq × failure class", () => {
  it.each(cases)("$format to $sink, jq $jq, $kind", async (c) => {
    const expected = await healthyOutput(c);
    const controller = new AbortController();
    api.heal();
    const handler = failure(c.kind, controller);
    if (handler) api.fault(api.cursorAt(FAIL_AT), handler);

    let target: string | undefined;
    if (c.sink === "file") {
      if (c.kind === "write-error") {
        if (!full) return expect.soft(full, "a tmpfs could not be mounted: not root?").toBeDefined();
        target = path.join(full, "target.out");
      } else {
        target = path.join(dir, `target-${c.format}-${c.kind}-${c.jq ? "jq" : "plain"}.out`);
        writeFileSync(target, "previous\n");
      }
    }
    // The stdout write error: room for the first page and a little, not for the rest.
    const stdout =
      c.sink === "stdout" && c.kind === "write-error" ? fullStdout(Math.floor(expected.before.length / 3)) : undefined;
    const r = await pep(argvOf(c, target), { signal: controller.signal, ...(stdout ? { stdout } : {}) });

    // The exit code is the class's.
    expect(r.code, r.err).toBe(EXIT_OF[c.kind]);

    // A JSON error when JSON was asked, one readable error line otherwise.
    const machine = c.format === "json" || c.format === "ndjson";
    const lines = r.err.split("\n").filter((l) => l !== "" && !l.startsWith("sandbox data"));
    if (machine) {
      const errors = lines.filter((l) => l.startsWith('{"error":'));
      expect(errors, r.err).toHaveLength(1);
      expect((JSON.parse(errors[0]!) as { exit_code: number }).exit_code).toBe(EXIT_OF[c.kind]);
    } else {
      expect(
        lines.filter((l) => l.startsWith("error: ") || l === "interrupted"),
        r.err,
      ).toHaveLength(1);
    }

    // What reached the sink is a whole prefix: the target untouched, and what a file
    // export fetched kept beside it as <target>.partial (a table keeps nothing).
    const keeps = c.sink === "file" && c.kind !== "write-error" && c.format !== "table";
    if (c.sink === "file") {
      expect(readFileSync(target!, "utf8")).toBe("previous\n");
      expect(readdirSync(path.dirname(target!)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
      expect(r.out).toBe("");
      if (keeps) {
        expect(readFileSync(`${target}.partial`, "utf8")).toBe(expected.before);
        const state = JSON.parse(readFileSync(`${target}.partial.json`, "utf8")) as { cursor: string; items: number };
        expect(state).toMatchObject({ cursor: api.cursorAt(FAIL_AT), items: FAIL_AT });
      } else expect(existsSync(`${target}.partial`)).toBe(false);
    } else if (c.kind === "write-error") {
      // The device took part of a write: a byte prefix, and nothing after the failure.
      expect(expected.whole.startsWith(r.out)).toBe(true);
    } else {
      expect(r.out).toBe(expected.before);
      expect(expected.whole.startsWith(r.out)).toBe(true);
    }

    // The resume command continues right after the last item delivered.
    const resume = resumeOf(r.err, machine);
    if (c.sink === "stdout" && c.kind !== "write-error") {
      expect(resume, r.err).toContain(`--cursor=${api.cursorAt(FAIL_AT)}`);
    } else if (keeps) {
      // The same command again, which goes on from the partial: it finishes the file with
      // exactly what a healthy run writes, and asks only for the last and first kept pages
      // (to check that the data still lines up) and the pages not kept.
      expect(resume, r.err).not.toContain("--cursor");
      expect(r.err).toContain(".partial");
      api.heal();
      const before = api.requests.length;
      const again = await pep(argvOf(c, target));
      expect(again.code, again.err).toBe(0);
      expect(readFileSync(target!, "utf8")).toBe(expected.whole);
      expect(existsSync(`${target}.partial`)).toBe(false);
      expect(existsSync(`${target}.partial.json`)).toBe(false);
      const asked = api.requests.slice(before).map((q) => q.query.get("cursor"));
      expect(asked.slice(0, 3)).toEqual([api.cursorAt(FAIL_AT - PAGE), null, api.cursorAt(FAIL_AT)]);
      expect(asked.filter((c) => c === null)).toHaveLength(1);
    } else {
      // Nothing of the run was kept (the file target) or what was kept is unknown (a
      // device that failed a write): there is no cursor to offer.
      expect(resume, r.err).toBeNull();
    }
  });

  it("a resumed run prints exactly the rest, with and without --jq", async () => {
    for (const c of [
      { format: "ndjson", sink: "stdout", jq: undefined },
      { format: "ndjson", sink: "stdout", jq: ".id" },
      { format: "csv", sink: "stdout", jq: undefined },
    ] as const) {
      api.heal();
      api.fault(api.cursorAt(FAIL_AT), faults.status(503));
      const first = await pep(argvOf(c));
      expect(first.code).toBe(6);
      api.heal();
      const rest = await pep(resumeArgv(first.err));
      expect(rest.code, rest.err).toBe(0);
      const whole = (await healthyOutput(c)).whole;
      const header = c.format === "csv" ? `${whole.split("\r\n")[0]}\r\n` : "";
      expect(first.out + rest.out.slice(header.length)).toBe(whole);
    }
  });
});

function resumeOf(stderr: string, machine: boolean): string | null {
  if (machine) {
    const line = stderr.split("\n").find((l) => l.startsWith('{"error":'));
    return line ? (JSON.parse(line) as { resume: string | null }).resume : null;
  }
  return stderr.split("\n").find((l) => l.startsWith("to resume: ")) ?? null;
}
