/**
 * A second user on the machine, and a checkout that carries symlinks, against the side
 * files of a `--file` export (`.partial`, `.partial.json`, `.lock`, temp files): pep uses
 * one only when it is the user's own plain file, writable by no one else, in a folder that
 * passes the same rule; anything else is ignored with a warning naming it, and the export
 * starts clean. Nothing is read or written through a link, nothing leaks, and the result
 * is what a fresh run writes. Tests run as root: another user is uid 65534 (chown).
 */
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inProcessPep, isBuilt } from "../helpers/cli.js";
import { parseCsv } from "../helpers/formats.js";
import { startPep } from "../helpers/live-pep.js";
import { type MovingApi, startMovingApi } from "../helpers/moving-api.js";

const OTHER = 65534;
const root = process.getuid?.() === 0;

let api: MovingApi;
let top: string;
let dir: string;
let n = 0;

beforeAll(async () => {
  top = mkdtempSync(path.join(os.tmpdir(), "pep-side-"));
  api = await startMovingApi(30);
});
beforeEach(() => {
  api.heal();
  dir = path.join(top, `t${++n}`);
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o700);
});
afterAll(async () => {
  await api.close();
  rmSync(top, { recursive: true, force: true });
});

const env = () => ({ PEP_CONFIG_DIR: path.join(top, "config"), PEP_CACHE_DIR: path.join(top, "cache") });
const argv = (file: string, more: string[] = []) => [
  "studies",
  "list",
  "--all",
  "--page-size",
  "10",
  "--retries",
  "0",
  "--base-url",
  api.baseUrl,
  "--file",
  file,
  ...more,
];
const pep = (words: string[], extraEnv: Record<string, string> = {}) =>
  inProcessPep(words, { env: { ...env(), ...extraEnv }, cwd: dir });
const ids = (file: string) => parseCsv(readFileSync(file, "utf8")).map((r) => r.id);
const allIds = () => api.studies.map((s) => s.id);

/** A cut-short export of `file`: a partial of 20 studies beside it. */
async function cut(file: string) {
  api.failAt("o20", 503);
  const r = await pep(argv(file));
  expect(r.code, r.err).toBe(6);
  api.heal();
  expect(ids(`${file}.partial`)).toHaveLength(20);
}

describe.skipIf(!root)("a planted or foreign .partial", () => {
  it("a symlink to a secret, with a state that matches it: ignored, nothing of the secret in the export", async () => {
    const target = path.join(dir, "s.csv");
    await cut(target);
    const secret = path.join(dir, "secret.env");
    writeFileSync(secret, "PEP_API_KEY=sk_live_very_secret_value\n", { mode: 0o600 });
    rmSync(`${target}.partial`);
    symlinkSync(secret, `${target}.partial`);
    // The state is made to match the secret's bytes: only the link gives it away.
    const state = JSON.parse(readFileSync(`${target}.partial.json`, "utf8"));
    const bytes = readFileSync(secret);
    state.bytes = bytes.length;
    state.sha256 = (await import("node:crypto")).createHash("sha256").update(bytes).digest("hex");
    writeFileSync(`${target}.partial.json`, JSON.stringify(state), { mode: 0o600 });
    const r = await pep(argv(target, ["-q"]));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`warning: ignoring ${target}.partial: it is a symbolic link; starting from the first page`);
    expect(readFileSync(target, "utf8")).not.toContain("secret");
    expect(ids(target)).toEqual(allIds());
    expect(readFileSync(secret, "utf8")).toBe("PEP_API_KEY=sk_live_very_secret_value\n");
  });

  it("another user's partial in a sticky folder: ignored (and --restart does not claim to drop it)", async () => {
    const shared = path.join(dir, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const target = path.join(shared, "s.csv");
    await cut(target);
    // The other user's partial claims one item is left: a continued run would stop there.
    const state = JSON.parse(readFileSync(`${target}.partial.json`, "utf8"));
    state.remaining = 1;
    writeFileSync(`${target}.partial.json`, JSON.stringify(state));
    for (const f of [`${target}.partial`, `${target}.partial.json`]) chownSync(f, OTHER, OTHER);
    const r = await pep(argv(target, ["--restart"]));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/warning: ignoring .*s\.csv\.partial\.json: it belongs to uid 65534, not to you \(uid 0\)/);
    expect(r.err).not.toMatch(/dropped/);
    expect(ids(target)).toEqual(allIds());
  });

  it("a partial others can write (0664), or in a folder others can write (0777): ignored", async () => {
    const target = path.join(dir, "s.csv");
    await cut(target);
    chmodSync(`${target}.partial`, 0o664);
    const r = await pep(argv(target));
    expect(r.err).toMatch(/warning: ignoring .*s\.csv\.partial: it can be written by others \(mode 0664\)/);
    expect(ids(target)).toEqual(allIds());

    // A partial kept while the folder was private, whose folder everyone can write since.
    const open = path.join(dir, "open");
    mkdirSync(open, { mode: 0o700 });
    const other = path.join(open, "s.csv");
    await cut(other);
    chmodSync(open, 0o777);
    const again = await pep(argv(other));
    expect(again.code, again.err).toBe(0);
    expect(again.err).toMatch(
      /warning: ignoring .*open\/s\.csv\.partial\.json: it is in an untrusted folder \(the folder .*open can be written by others \(mode 0777\)\)/,
    );
    // Nor is a new partial kept there: it could not be trusted on the next run.
    api.failAt("o20", 503);
    const cutThere = await pep(argv(other));
    expect(cutThere.code).toBe(6);
    expect(cutThere.err).not.toMatch(/fetched so far are kept/);
    expect(cutThere.err).toMatch(/was left as it was; run the same command again to fetch the whole list/);
    api.heal();
    expect(ids(other)).toEqual(allIds());
  });

  it("a named pipe as .partial: ignored at once, no hang", async () => {
    const target = path.join(dir, "s.csv");
    await cut(target);
    rmSync(`${target}.partial`);
    spawnSync("mkfifo", [`${target}.partial`]);
    const r = await pep(argv(target));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/warning: ignoring .*s\.csv\.partial: it is not a plain file/);
    expect(ids(target)).toEqual(allIds());
  });

  it("links planted at the state's and the partial's names: replaced, the files they point at untouched", async () => {
    const target = path.join(dir, "s.csv");
    const victim = path.join(dir, "victim.txt");
    writeFileSync(victim, "precious\n");
    symlinkSync(victim, `${target}.partial.json`);
    symlinkSync(victim, `${target}.partial`);
    api.failAt("o20", 503);
    const r = await pep(argv(target));
    expect(r.code, r.err).toBe(6);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(ids(`${target}.partial`)).toHaveLength(20);
    expect(JSON.parse(readFileSync(`${target}.partial.json`, "utf8"))).toMatchObject({ items: 20 });
    // Written 0600, whatever the umask: the partial may hold what a key can read.
    const { statSync } = await import("node:fs");
    expect(statSync(`${target}.partial`).mode & 0o777).toBe(0o600);
    expect(statSync(`${target}.partial.json`).mode & 0o777).toBe(0o600);
  });
});

/** A process that stays alive, and one left as a zombie (its parent never reaps it). */
function sleeper(): { pid: number; kill(): void } {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  return { pid: child.pid!, kill: () => child.kill("SIGKILL") };
}
async function zombie(): Promise<{ pid: number; kill(): void }> {
  // A parent that never reaps: Python does not (a shell may reap its child before it
  // execs, however soon, on a busy machine).
  const parent = spawn(
    "python3",
    ["-c", "import os, time\npid = os.fork()\nif pid == 0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(60)"],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.once("data", (b: Buffer) => resolve(Number(String(b).trim()))),
  );
  for (let i = 0; i < 100 && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8")); i++)
    await new Promise((r) => setTimeout(r, 20));
  return { pid, kill: () => parent.kill("SIGKILL") };
}
const startMs = (pid: number) => {
  const boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))![1]) * 1000;
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return boot + Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]) * 10;
};
const lock = (file: string, record: Record<string, unknown>) =>
  writeFileSync(`${file}.lock`, JSON.stringify({ token: "planted", ...record }), { mode: 0o600 });

describe.skipIf(!existsSync("/proc/self/stat"))("locks", () => {
  it("held by a live pep: exit 1 before any request, target_busy, the process and the lock to remove", async () => {
    const target = path.join(dir, "s.json");
    const live = sleeper();
    try {
      lock(target, { pid: live.pid, created_ms: Date.now(), started_ms: startMs(live.pid) });
      const before = api.requests.length;
      const r = await pep(argv(target, ["-o", "json"]));
      expect(r.code).toBe(1);
      const o = JSON.parse(r.err.trim().split("\n").at(-1)!);
      expect(o).toMatchObject({ error: { code: "target_busy" }, exit_code: 1 });
      expect(o.error.message).toContain(`another pep (process ${live.pid}) is writing it`);
      expect(o.hints.join("\n")).toContain(`remove ${target}.lock`);
      expect(api.requests.length).toBe(before);
    } finally {
      live.kill();
    }
  });

  it("of a process that is gone, a zombie, or a younger process with the same id: removed with a notice", async () => {
    const target = path.join(dir, "s.csv");
    const z = await zombie();
    const live = sleeper();
    try {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ pid: 4_000_000, created_ms: Date.now() }, /process 4000000 is gone/],
        [{ pid: z.pid, created_ms: Date.now() }, new RegExp(`process ${z.pid} is gone`)],
        // The lock is older than the process holding that id now: a reused id.
        [{ pid: live.pid, created_ms: startMs(live.pid) - 120_000 }, new RegExp(`process ${live.pid} is gone`)],
        [{ pid: live.pid, created_ms: Date.now(), started_ms: startMs(live.pid) - 60_000 }, /process \d+ is gone/],
      ];
      for (const [record, why] of cases) {
        lock(target, record);
        const r = await pep(argv(target));
        expect(r.code, r.err).toBe(0);
        expect(r.err).toMatch(new RegExp(`removed the stale lock ${target}\\.lock \\(${why.source}\\)`));
        expect(existsSync(`${target}.lock`)).toBe(false);
        expect(ids(target)).toEqual(allIds());
      }
    } finally {
      z.kill();
      live.kill();
    }
  });

  it.skipIf(!root)(
    "another user's lock, or a link there: never read as a lock, reported, the export runs",
    async () => {
      const target = path.join(dir, "s.csv");
      const victim = path.join(dir, "victim.txt");
      writeFileSync(victim, "precious\n");
      symlinkSync(victim, `${target}.lock`);
      const r = await pep(argv(target));
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain(`warning: ignoring the lock ${target}.lock: it is a symbolic link`);
      expect(readFileSync(victim, "utf8")).toBe("precious\n");
      rmSync(`${target}.lock`);
      lock(target, { pid: 1, created_ms: Date.now() });
      chownSync(`${target}.lock`, OTHER, OTHER);
      const foreign = await pep(argv(target));
      expect(foreign.code, foreign.err).toBe(0);
      expect(foreign.err).toContain(`warning: ignoring the lock ${target}.lock: it belongs to uid 65534`);
    },
  );

  it("a named pipe or device written in place takes no lock beside it (no `/dev/stdout.lock`)", async () => {
    const fifo = path.join(dir, "out.fifo");
    spawnSync("mkfifo", [fifo]);
    const reader = spawn("cat", [fifo], { stdio: ["ignore", "pipe", "ignore"] });
    // Listened for at once: the reader may end before pep's run has returned.
    const readerClosed = new Promise((done) => reader.once("close", done));
    let read = "";
    reader.stdout.on("data", (b: Buffer) => (read += b));
    // Reached through a link, as /dev/stdout is.
    const link = path.join(dir, "out.link");
    symlinkSync(fifo, link);
    const hold = api.holdAt("o10");
    const running = pep(argv(link, ["-o", "csv"]));
    for (let i = 0; i < 500 && !api.asked().includes("o10"); i++) await new Promise((r) => setTimeout(r, 20));
    expect(readdirSync(dir).filter((f) => f.endsWith(".lock"))).toEqual([]);
    hold.release();
    const r = await running;
    expect(r.code, r.err).toBe(0);
    await readerClosed;
    expect(parseCsv(read).map((row) => row.id)).toEqual(allIds());
  });

  it("a planted temp file named for process 1 blocks nothing", async () => {
    const target = path.join(dir, "s.csv");
    writeFileSync(path.join(dir, ".s.csv.1-0.tmp"), "");
    const r = await pep(argv(target));
    expect(r.code, r.err).toBe(0);
    expect(ids(target)).toEqual(allIds());
  });

  it.skipIf(!isBuilt())(
    "a writer killed with SIGKILL: an immediate rerun removes its lock and temp file and finishes",
    async () => {
      const target = path.join(dir, "s.csv");
      const hold = api.holdAt("o10");
      const first = startPep(argv(target), { env: env(), cwd: dir });
      try {
        for (let i = 0; i < 500 && !api.asked().includes("o10"); i++) await new Promise((r) => setTimeout(r, 20));
        expect(existsSync(`${target}.lock`)).toBe(true);
        first.child.kill("SIGKILL");
        await first.exit();
      } finally {
        hold.release();
      }
      api.heal();
      const r = await pep(argv(target));
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(
        new RegExp(`removed the stale lock ${target}\\.lock \\(process ${first.child.pid} is gone\\)`),
      );
      expect(ids(target)).toEqual(allIds());
      expect(readdirSync(dir).filter((f) => f.endsWith(".tmp") || f.endsWith(".lock"))).toEqual([]);
    },
  );
});

describe("an unwritable target, found before any request", () => {
  it("a read-only file (0444): exit 1 naming it, permission_denied, nothing sent, the file as it was", async () => {
    const target = path.join(dir, "ro.csv");
    writeFileSync(target, "old\n");
    chmodSync(target, 0o444);
    const before = api.requests.length;
    const r = await pep(argv(target));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      new RegExp(`^error: cannot write the output: --file ${target}: the file cannot be written`, "m"),
    );
    const j = await pep(argv(target), { PEP_OUTPUT: "json" });
    expect(JSON.parse(j.err.trim())).toMatchObject({ error: { code: "permission_denied" }, exit_code: 1 });
    expect(readFileSync(target, "utf8")).toBe("old\n");
    expect(api.requests.length).toBe(before);
  });

  it("a read-only folder (0555): exit 1 naming the target, nothing sent", async () => {
    const ro = path.join(dir, "ro");
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    const before = api.requests.length;
    const r = await pep(argv(path.join(ro, "x.csv")));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--file .*ro\/x\.csv: its folder .*ro cannot be written/);
    expect(api.requests.length).toBe(before);
  });
});

describe("key and config files that are not plain files", () => {
  it("a named pipe as --api-key-file or as the config file: exit 2 at once, nothing read", async () => {
    const fifo = path.join(dir, "key.fifo");
    spawnSync("mkfifo", [fifo]);
    const r = await pep(["--api-key-file", fifo, "vendors", "list", "--base-url", api.baseUrl]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: --api-key-file: ${fifo} is a named pipe, not a file that holds a key`);
    const configDir = path.join(dir, "cfg");
    mkdirSync(configDir, { mode: 0o700 });
    spawnSync("mkfifo", [path.join(configDir, "config.json")]);
    const c = await inProcessPep(["config", "list"], { env: { PEP_CONFIG_DIR: configDir }, cwd: dir });
    expect(c.code).toBe(2);
    expect(c.err).toContain(`config file ${path.join(configDir, "config.json")} is a named pipe`);
  });
});
