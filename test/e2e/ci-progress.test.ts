/**
 * A CI log: GitHub Actions and GitLab give no terminal, even with CI=true. A long export
 * there prints plain progress lines (page, items), never a spinner's escapes; retry and
 * wait lines name the page; a finished --file export says where it wrote. Off a terminal
 * without CI, a quick run says nothing more than before. The run is made long by holding
 * a page until the line shows, not by waiting a guessed time, on the progress's own time
 * run faster (the run's injected progress clock).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { testIO } from "../../src/core/io.js";
import { inProcessPep } from "../helpers/cli.js";
import { type MovingApi, startMovingApi } from "../helpers/moving-api.js";
import { FakeClock } from "../http/fake-clock.js";
import type { ProgressClock } from "../../src/output/progress.js";

let api: MovingApi;
let dir: string;
beforeAll(async () => {
  api = await startMovingApi(30);
  dir = mkdtempSync(path.join(os.tmpdir(), "pep-ci-"));
});
beforeEach(() => api.heal());
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (more: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  PEP_CONFIG_DIR: path.join(dir, "config"),
  PEP_CACHE_DIR: path.join(dir, "cache"),
  ...more,
});
const argv = (file: string) => [
  "studies",
  "list",
  "--all",
  "--page-size",
  "10",
  "--base-url",
  api.baseUrl,
  "--file",
  path.join(dir, file),
];

/**
 * The progress's time running 50 times faster than the wall's, consistently (its now and
 * its timers): the 2 s before a CI log's first line, or 4 s off CI, pass in 40 or 80 ms.
 */
function fastTime(factor = 50): ProgressClock {
  const start = Date.now();
  return {
    now: () => start + (Date.now() - start) * factor,
    setTimeout: (fn, ms) => setTimeout(fn, ms / factor),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
}

/** Runs pep with stderr a pipe, holding page 2 until stderr matches `shows` (or 15 s pass). */
async function heldUntil(words: string[], shows: RegExp, more: Record<string, string>) {
  const hold = api.holdAt("o10");
  const io = testIO({ env: env(more), cwd: dir, tty: false });
  const running = run(words, { io, progressClock: fastTime() });
  const end = Date.now() + 15_000;
  while (!shows.test(io.err()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  const seen = io.err();
  hold.release();
  const code = await running;
  return { code, seen, err: io.err() };
}

describe("progress in a CI log", () => {
  it("CI=true, no terminal: plain lines with the page and items, then `wrote N studies to <path>`", async () => {
    const r = await heldUntil(argv("ci.csv"), /Fetching studies: page 1, 10 items/, { CI: "true" });
    expect(r.seen).toMatch(/^Fetching studies: page 1, 10 items$/m);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`wrote 30 studies to ${path.join(dir, "ci.csv")}`);
    expect(r.err).not.toMatch(/[\r\x1b]/);
  });

  it("no CI, no terminal: a run that lasts gets plain lines too", async () => {
    const r = await heldUntil(argv("long.csv"), /Fetching studies: page 1, 10 items/, {});
    expect(r.seen).toMatch(/^Fetching studies: page 1, 10 items$/m);
    expect(r.code).toBe(0);
  });

  it("no CI, no terminal, a quick run: no progress line; -q: nothing at all", async () => {
    const r = await inProcessPep(argv("quick.csv"), { env: env(), cwd: dir });
    expect(r.code).toBe(0);
    expect(r.err).toBe(`wrote 30 studies to ${path.join(dir, "quick.csv")}\n`);
    const q = await inProcessPep([...argv("quick.csv"), "-q"], { env: env({ CI: "true" }), cwd: dir });
    expect(q.err).toBe("");
  });

  it("a retry line names the page it holds up", async () => {
    api.failAt("o20", 503);
    const r = await inProcessPep([...argv("retry.csv"), "--retries", "1"], {
      env: env({ CI: "true" }),
      cwd: dir,
      deps: { clock: new FakeClock() },
    });
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^page 3: .*HTTP 503.*; retrying in \S+( ms)? \(1\/1\)$/m);
  });
});
