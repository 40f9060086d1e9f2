/**
 * The process under stress: every signal that ends a run (SIGHUP when the terminal goes,
 * SIGQUIT from Ctrl-\, SIGTERM from `kill`, SIGINT from Ctrl-C) removes the --file temp
 * file, leaves the target byte for byte as it was and exits 128 + the signal's number;
 * a stderr whose reader goes away never turns a good run into a failure.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, ROOT } from "../helpers/cli.js";
import { faults, useFaultApi } from "../helpers/fault-api.js";
import { startPep } from "../helpers/live-pep.js";
import { delay } from "../helpers/server.js";

const suite = useFaultApi({ total: 7 });
const { tmp } = suite;
const OLD = "id,title\r\nold-1,kept\r\n";

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

describe("every signal that ends a run cleans up", () => {
  for (const signal of ["SIGHUP", "SIGQUIT", "SIGTERM", "SIGINT"] as const) {
    it(`${signal} mid-download: exit ${128 + constants.signals[signal]}, no temp file, the target untouched, the first page kept`, async () => {
      const dir = mkdtempSync(path.join(tmp.dir, "sig-"));
      writeFileSync(path.join(dir, "out.csv"), OLD);
      suite.api.fault(suite.api.cursorAt(2), faults.slow(20_000, suite.api.items));
      const live = startPep(
        [
          "studies",
          "list",
          "-o",
          "csv",
          "--all",
          "--page-size",
          "2",
          "--file",
          "out.csv",
          "--base-url",
          suite.api.baseUrl,
        ],
        {
          env: tmp.env,
          cwd: dir,
        },
      );
      await until(() => suite.api.hits(suite.api.cursorAt(2)) > 0, "the request for page 2");
      expect(readdirSync(dir).some((f) => f.endsWith(".tmp"))).toBe(true);
      live.child.kill(signal);
      const r = await live.exit();
      expect(r.signal, r.err).toBeNull();
      expect(r.code, r.err).toBe(128 + constants.signals[signal]);
      expect(r.err).toMatch(signal === "SIGINT" ? /^interrupted$/m : new RegExp(`^interrupted \\(${signal}\\)$`, "m"));
      expect(readdirSync(dir).sort()).toEqual(["out.csv", "out.csv.partial", "out.csv.partial.json"]);
      expect(readFileSync(path.join(dir, "out.csv"), "utf8")).toBe(OLD);
      // The page that had arrived is kept for the same command to finish.
      expect(readFileSync(path.join(dir, "out.csv.partial"), "utf8").split("\r\n").filter(Boolean)).toHaveLength(3);
    });
  }
});

describe("a signal under -o json", () => {
  for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) {
    it(`${signal}: the JSON exit_code is the process's own, ${128 + constants.signals[signal]}, and the rerun finishes the file`, async () => {
      const dir = mkdtempSync(path.join(tmp.dir, "sig-json-"));
      suite.api.fault(suite.api.cursorAt(2), faults.slow(20_000, suite.api.items));
      const argv = ["studies", "list", "-o", "json", "--all", "--page-size", "2", "--file", "out.json"];
      const live = startPep([...argv, "--base-url", suite.api.baseUrl], { env: tmp.env, cwd: dir });
      await until(() => suite.api.hits(suite.api.cursorAt(2)) > 0, "the request for page 2");
      live.child.kill(signal);
      const r = await live.exit();
      const code = 128 + constants.signals[signal];
      expect(r.code, r.err).toBe(code);
      const error = JSON.parse(r.err.split("\n").find((l) => l.startsWith('{"error":'))!);
      expect(error).toMatchObject({ error: { code: "interrupted" }, exit_code: code });
      suite.api.heal();
      const again = startPep([...argv, "--base-url", suite.api.baseUrl], { env: tmp.env, cwd: dir });
      const done = await again.exit();
      expect(done.code, done.err).toBe(0);
      expect(done.err).toMatch(/going on from .*out\.json\.partial \(2 items kept/);
      expect(JSON.parse(readFileSync(path.join(dir, "out.json"), "utf8"))).toEqual(suite.api.items);
    });
  }
});

/** Runs pep with stderr's reading end closed at `when`; resolves with its exit code and stdout. */
function withStderrClosed(
  argv: string[],
  when: "at-once" | "first-line",
): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...tmp.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    if (when === "at-once") child.stderr.destroy();
    else child.stderr.once("data", () => child.stderr.destroy());
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out: Buffer.concat(out).toString("utf8") });
    });
  });
}

describe("a stderr that goes away", () => {
  it("closed before the run starts: -v logs into nothing, stdout is whole, exit 0", async () => {
    const r = await withStderrClosed(
      ["studies", "list", "--all", "--page-size", "2", "-v", "-o", "ndjson", "--base-url", suite.api.baseUrl],
      "at-once",
    );
    expect(r.code).toBe(0);
    expect(
      r.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual(suite.api.items.map((i) => i.id));
  });

  it("closed after its first line (`2>&1 | head -1`): exit 0 and every item on stdout", async () => {
    const r = await withStderrClosed(
      ["studies", "list", "--all", "--page-size", "1", "-v", "-o", "ndjson", "--base-url", suite.api.baseUrl],
      "first-line",
    );
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n")).toHaveLength(suite.api.items.length);
  });

  it("keeps the code the run earned: a 404 still exits 4", async () => {
    const r = await withStderrClosed(["api", "/nowhere", "-v", "--base-url", suite.api.baseUrl], "at-once");
    expect(r.code).toBe(4);
  });

  it("a shell pipe `2>&1 | head -1` ends quietly with the run's code", async () => {
    const cmd = `"${process.execPath}" "${BIN}" studies list --all --page-size 1 -v -o ndjson --base-url ${suite.api.baseUrl} 2>/dev/stdout >/dev/null | head -1; echo "code=\${PIPESTATUS[0]}"`;
    const r = await new Promise<string>((resolve) => {
      const child = spawn("bash", ["-c", cmd], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...tmp.env } });
      const chunks: Buffer[] = [];
      child.stdout.on("data", (c: Buffer) => chunks.push(c));
      child.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    });
    expect(r).toMatch(/code=0\s*$/);
    expect(r).not.toMatch(/EPIPE|unexpected/);
  });
});
