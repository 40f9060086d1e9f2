/**
 * Fault matrix, `--file`: a run that fails or is interrupted never leaves the target
 * half-written, never creates it, and leaves no temp file beside it; a pre-existing
 * target stays byte for byte as it was. Ctrl-C is a real SIGINT sent to the real
 * executable in the middle of a download (exit 130, "interrupted"), also a second
 * signal right behind the first, which exits at once.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import { errorLineOf, faults, useFaultApi } from "../helpers/fault-api.js";
import { parseCsv } from "../helpers/formats.js";
import { startPep, type LivePep } from "../helpers/live-pep.js";
import { delay } from "../helpers/server.js";

const suite = useFaultApi({ total: 7 });
const { tmp } = suite;

const OLD = "id,title\r\nold-1,an earlier export that must survive\r\n";

/** A fresh folder holding `out.csv` with OLD in it (mode 0640), or nothing. */
function folder(withTarget: boolean): { dir: string; target: string } {
  const dir = mkdtempSync(path.join(tmp.dir, "files-"));
  const target = path.join(dir, "out.csv");
  if (withTarget) writeFileSync(target, OLD, { mode: 0o640 });
  return { dir, target };
}

function expectUntouched(dir: string, target: string): void {
  expect(readdirSync(dir)).toEqual(["out.csv"]);
  expect(readFileSync(target, "utf8")).toBe(OLD);
  expect(statSync(target).mode & 0o777).toBe(0o640);
}

const pepIn = (dir: string, argv: readonly string[]) =>
  inProcessPep([...argv, "--base-url", suite.api.baseUrl], { env: tmp.env, cwd: dir });
const listToFile = ["studies", "list", "-o", "csv", "--all", "--page-size", "2", "--file", "out.csv"];

/** Waits for `check`; fails early, with their stderr, when a watched run ends first. */
async function until(check: () => boolean, what: string, runs: LivePep[] = [], timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    const ended = runs.find((r) => r.child.exitCode !== null || r.child.signalCode !== null);
    if (ended) throw new Error(`pep ended before ${what}:\n${ended.err()}`);
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}:\n${runs.map((r) => r.err()).join("\n")}`);
    await delay(20);
  }
}

describe("--file when the run fails", () => {
  it("a failed single item leaves the old file as it was and no temp file", async () => {
    const { dir, target } = folder(true);
    suite.api.fault("peptide", faults.status(500));
    const r = await pepIn(dir, ["peptides", "get", "bpc-157", "-o", "csv", "--file", "out.csv", "--retries", "0"]);
    expect(r.code, r.err).toBe(6);
    errorLineOf(r.err);
    expectUntouched(dir, target);
  });

  it("a failed run does not create the file", async () => {
    const { dir } = folder(false);
    suite.api.fault(undefined, faults.htmlOk());
    const r = await pepIn(dir, listToFile);
    expect(r.code, r.err).toBe(6);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a list cut short on page 3: the old file stays whole, the two pages fetched are kept, and the same command finishes it", async () => {
    const { dir, target } = folder(true);
    suite.api.fault(suite.api.cursorAt(4), faults.reset());
    const r = await pepIn(dir, [...listToFile, "--retries", "0"]);
    expect(r.code, r.err).toBe(6);
    expect(suite.api.hits(suite.api.cursorAt(2))).toBe(1);
    expect(readFileSync(target, "utf8")).toBe(OLD);
    expect(readdirSync(dir).sort()).toEqual(["out.csv", "out.csv.partial", "out.csv.partial.json"]);
    expect(errorLineOf(r.err)).toMatch(/was reset$/);
    // No cursor for the rest alone (a file without its first pages): the same command.
    expect(r.err).toMatch(
      /^hint: out\.csv was left as it was; the 4 items fetched so far are kept in out\.csv\.partial$/m,
    );
    expect(r.err).not.toMatch(/--cursor/);
    suite.api.heal();
    const done = await pepIn(dir, [...listToFile, "--retries", "0"]);
    expect(done.code, done.err).toBe(0);
    expect(readdirSync(dir)).toEqual(["out.csv"]);
    expect(readFileSync(target, "utf8").split("\r\n").filter(Boolean)).toHaveLength(suite.api.items.length + 1);
  });

  it("the same run on a healthy server replaces the file with the whole list, mode kept", async () => {
    const { dir, target } = folder(true);
    const r = await pepIn(dir, listToFile);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("");
    expect(readdirSync(dir)).toEqual(["out.csv"]);
    expect(parseCsv(readFileSync(target, "utf8")).map((row) => row.id)).toEqual(suite.api.items.map((i) => i.id));
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });
});

describe("--file and a real Ctrl-C (SIGINT)", () => {
  it("mid-download, page 2 on its way: exit 130, 'interrupted', the old file byte for byte, no temp file", async () => {
    const { dir, target } = folder(true);
    suite.api.fault(suite.api.cursorAt(2), faults.slow(20_000, suite.api.items));
    const live = startPep([...listToFile, "--base-url", suite.api.baseUrl], { env: tmp.env, cwd: dir });
    await until(() => suite.api.hits(suite.api.cursorAt(2)) > 0, "the request for page 2", [live]);
    // Page 1 is in the temp file by now.
    expect(readdirSync(dir).some((f) => f.endsWith(".tmp"))).toBe(true);
    live.child.kill("SIGINT");
    const r = await live.exit();
    expect(r.code).toBe(130);
    expect(r.err).toMatch(/^interrupted$/m);
    // The first page is kept; the same command again finishes the file.
    expect(r.err).not.toMatch(/error:/);
    expect(r.err).toMatch(
      /^hint: out\.csv was left as it was; the 2 items fetched so far are kept in out\.csv\.partial$/m,
    );
    expect(r.err).not.toMatch(/--cursor/);
    expect(readFileSync(target, "utf8")).toBe(OLD);
    expect(readdirSync(dir).sort()).toEqual(["out.csv", "out.csv.partial", "out.csv.partial.json"]);
  });

  it("a second signal right behind the first exits at once, and still leaves no temp file", async () => {
    // Several runs at once: the second signal must land while the first is unwinding.
    suite.api.fault(suite.api.cursorAt(2), faults.slow(20_000, suite.api.items));
    const runs = Array.from({ length: 4 }, () => {
      const { dir, target } = folder(true);
      return {
        dir,
        target,
        live: startPep([...listToFile, "--base-url", suite.api.baseUrl], { env: tmp.env, cwd: dir }),
      };
    });
    await until(
      () => suite.api.hits(suite.api.cursorAt(2)) >= runs.length,
      "every run's request for page 2",
      runs.map((r) => r.live),
    );
    for (const { live } of runs) {
      live.child.kill("SIGINT");
      live.child.kill("SIGTERM");
    }
    for (const { dir, target, live } of runs) {
      const r = await live.exit();
      // On a busy machine the second signal can come after the run has finished
      // unwinding the first ("interrupted" printed, temp file gone) and the process is
      // exiting: then it ends by that signal's default, which is as good. Either way,
      // the target and the folder are as they were.
      const unwoundFirst = r.signal === "SIGTERM" && /^interrupted$/m.test(r.err);
      // The second signal ends the run at once with its own code: 130 (SIGINT) or 143
      // (SIGTERM), whichever of the two the process acted on last.
      if (!unwoundFirst) expect([130, 143], `${r.code} ${r.signal} ${r.err}`).toContain(r.code);
      expectUntouched(dir, target);
    }
  });

  it("while waiting to retry a 429: exit 130 at once, and no file is created", async () => {
    const { dir } = folder(false);
    suite.api.fault(undefined, faults.rateLimited("30"));
    const started = Date.now();
    const live = startPep([...listToFile, "--retries", "2", "--base-url", suite.api.baseUrl], {
      env: tmp.env,
      cwd: dir,
    });
    await live.waitForStderr(/retrying in 30s/);
    live.child.kill("SIGINT");
    const r = await live.exit();
    expect(r.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.err).toMatch(/^interrupted$/m);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a single item on its way: exit 130, the old file untouched", async () => {
    const { dir, target } = folder(true);
    suite.api.fault("peptide", faults.slow(20_000, suite.api.items));
    const live = startPep(
      ["peptides", "get", "bpc-157", "-o", "csv", "--file", "out.csv", "--base-url", suite.api.baseUrl],
      { env: tmp.env, cwd: dir },
    );
    await until(() => suite.api.hits("peptide") > 0, "the request for the peptide", [live]);
    live.child.kill("SIGINT");
    const r = await live.exit();
    expect(r.code).toBe(130);
    expect(r.err).toMatch(/^interrupted$/m);
    expectUntouched(dir, target);
  });
});
