/**
 * One writer per --file target: a second export to a file another pep is writing fails at
 * once (exit 1) naming the other process and leaves both files alone; the temp files of
 * processes that no longer exist (a run killed with SIGKILL) are removed by the next run.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessPep, isBuilt } from "../helpers/cli.js";
import { faults, startFaultApi, type FaultApi } from "../helpers/fault-api.js";
import { startPep } from "../helpers/live-pep.js";

let api: FaultApi;
let dir: string;

beforeAll(async () => {
  api = await startFaultApi({ total: 6 });
  dir = mkdtempSync(path.join(os.tmpdir(), "pep-one-writer-"));
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

const argv = (file: string) => [
  "studies",
  "list",
  "-o",
  "csv",
  "--all",
  "--page-size",
  "2",
  "--file",
  file,
  "--base-url",
  api.baseUrl,
];
const env = () => ({ PEP_CONFIG_DIR: path.join(dir, "config"), PEP_CACHE_DIR: path.join(dir, "cache") });

describe.skipIf(!isBuilt())("one writer per --file target", () => {
  it("a second export to a file another pep is writing fails at once, naming it", async () => {
    const target = path.join(dir, "busy.csv");
    writeFileSync(target, "old\n");
    api.heal();
    // The first writer (a real process) waits on its second page.
    api.fault(api.cursorAt(2), faults.slow(20_000, api.items));
    const first = startPep(argv("busy.csv"), { env: env(), cwd: dir });
    try {
      const deadline = Date.now() + 10_000;
      while (api.hits(api.cursorAt(2)) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(api.hits(api.cursorAt(2))).toBe(1);
      const before = api.requests.length;
      const second = await inProcessPep(argv("busy.csv"), { env: env(), cwd: dir });
      expect(second.code, second.err).toBe(1);
      expect(second.err).toContain(`--file ${target}: another pep (process ${first.child.pid}) is writing it`);
      expect(api.requests.length).toBe(before);
      expect(readFileSync(target, "utf8")).toBe("old\n");
    } finally {
      first.child.kill("SIGKILL");
      await first.exit();
    }
  });

  it("the temp file a killed run left is removed by the next run, which writes the file", async () => {
    // The SIGKILL above left `.busy.csv.<pid>-….tmp` behind; that process no longer exists.
    expect(readdirSync(dir).filter((n) => n.startsWith(".busy.csv.") && n.endsWith(".tmp"))).toHaveLength(1);
    api.heal();
    const r = await inProcessPep(argv("busy.csv"), { env: env(), cwd: dir });
    expect(r.code, r.err).toBe(0);
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    expect(readFileSync(path.join(dir, "busy.csv"), "utf8").split("\r\n").filter(Boolean)).toHaveLength(7);
  });
});

/** A folder on a read-only file system (root writes anywhere else), or undefined when none can be mounted. */
function readOnlyFolder(): string | undefined {
  const at = path.join(dir, "ro");
  mkdirSync(at);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=4k", "tmpfs", at], { stdio: "ignore" });
    return at;
  } catch {
    return undefined;
  }
}

describe("a folder the output cannot be written in", () => {
  it("is exit 1 (the output could not be written), before any request, in the README's words", async () => {
    const ro = readOnlyFolder();
    if (!ro) return expect.soft(ro, "a read-only tmpfs could not be mounted: not root?").toBeDefined();
    try {
      const before = api.requests.length;
      const r = await inProcessPep([...argv(path.join(ro, "x.csv")), "-o", "csv"], { env: env(), cwd: dir });
      expect(r.code, r.err).toBe(1);
      expect(r.err).toMatch(
        /^error: cannot write the output: --file .*\/ro\/x\.csv: its folder .*\/ro cannot be written \(EROFS, mode \d+\)$/m,
      );
      expect(api.requests.length).toBe(before);
      const json = await inProcessPep([...argv(path.join(ro, "x.json")), "-o", "json"], { env: env(), cwd: dir });
      expect(json.code).toBe(1);
      expect(JSON.parse(json.err.trim().split("\n").at(-1)!)).toMatchObject({
        error: { code: "permission_denied" },
        exit_code: 1,
      });
    } finally {
      execFileSync("umount", [ro]);
    }
  });
});
