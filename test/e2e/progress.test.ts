/**
 * Progress of a long list run on a real terminal (a pseudo-terminal from util-linux
 * `script`): a spinner with the counts, erased at the end; under TERM=dumb plain lines
 * instead, with no carriage return or escape sequence; off a terminal a wait is one
 * notice line; with -q nothing. The runs are made long by a server that holds the second
 * page until the terminal shows the progress, not by waiting a guessed time. Timing
 * (the delay, a wait's countdown, how often a line) is tested on fake time in
 * test/output/progress.test.ts.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, inProcessPep, isBuilt, scratch } from "../helpers/cli.js";
import { envelope, sendJson, startServer } from "../helpers/server.js";
import { hasScript, screenLines, shellQuote } from "../helpers/terminal.js";
import { FakeClock } from "../http/fake-clock.js";

const study = (n: number) => ({ id: `pmid-${90000000 + n}`, title: `Study ${n}`, publication_year: 2020 });

/** Two pages; the second is held until `release()` (the test calls it once it has seen the progress). */
function heldStudies() {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = startServer({
    "/v1/studies": async (req, res) => {
      if (!req.query.get("cursor"))
        return sendJson(res, 200, envelope([study(1)], { pagination: { next_cursor: "c2", has_more: true } }));
      await held;
      return sendJson(res, 200, envelope([study(2)], { pagination: { next_cursor: null, has_more: false } }));
    },
  });
  return { server, release };
}

/** `pep` on a pseudo-terminal (no newline translation), calling `watch` with all it has shown so far. */
function onTerminal(
  argv: string[],
  env: Record<string, string>,
  watch: (screen: string) => void,
  size = "cols 100 rows 40",
): Promise<{ code: number | null; screen: string }> {
  const command = `stty -onlcr ${size}; exec ${[process.execPath, BIN, ...argv].map(shellQuote).join(" ")}`;
  return new Promise((resolve) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: "xterm-256color", ...env },
    });
    let screen = "";
    child.stdout.on("data", (c: Buffer) => {
      screen += c.toString("utf8");
      watch(screen);
    });
    child.on("close", (code) => resolve({ code, screen }));
    setTimeout(() => child.kill(), 15_000).unref();
  });
}

/** Two pages; the first spends the rate-limit window, which resets in 2 s. */
const pacedStudies = () =>
  startServer({
    "/v1/studies": async (req, res) => {
      if (!req.query.get("cursor"))
        return sendJson(res, 200, envelope([study(1)], { pagination: { next_cursor: "c2", has_more: true } }), {
          "RateLimit-Limit": "1",
          "RateLimit-Remaining": "0",
          "RateLimit-Reset": "2",
        });
      return sendJson(res, 200, envelope([study(2)], { pagination: { next_cursor: null, has_more: false } }));
    },
  });

/** The frames ora drew, as text (colours stripped). */
const frames = (raw: string) => raw.split(/\x1b\[1G(?:\x1b\[0K)?/).map((f) => f.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ""));

/** An export of two pages; the second waits until the terminal shows `shown` (not at all without it). */
async function exportStudies(env: Record<string, string>, shown: RegExp | undefined, size?: string) {
  const { server, release } = heldStudies();
  if (!shown) release();
  const srv = await server;
  const tmp = scratch("pep-progress-");
  try {
    const file = path.join(tmp.dir, "out.ndjson");
    const argv = [
      "studies",
      "list",
      "--all",
      "-o",
      "ndjson",
      "--file",
      file,
      "--base-url",
      `${srv.url}/v1`,
      "--no-cache",
    ];
    const r = await onTerminal(argv, { ...tmp.env, ...env }, (screen) => shown?.test(screen) && release(), size);
    const ids = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { id: string }).id);
    return { ...r, ids, file };
  } finally {
    release();
    tmp.cleanup();
    await srv.close();
  }
}

describe.skipIf(!hasScript || !isBuilt())("progress on a terminal", () => {
  it("a spinner with the page and item counts, erased at the end", async () => {
    const r = await exportStudies({}, /Fetching studies: page 1, 1 item/);
    expect(r.code, r.screen).toBe(0);
    expect(r.ids).toEqual(["pmid-90000001", "pmid-90000002"]);
    expect(
      frames(r.screen).some((f) => /^\S Fetching studies: page 1, 1 item/.test(f)),
      r.screen,
    ).toBe(true);
    // Before the first page the line says what it fetches, never "page 0, 0 items".
    expect(r.screen).not.toMatch(/page 0|0 items/);
    // Nothing is left on the screen but the line saying where the output went.
    const shown = screenLines(r.screen)
      .map((l) => l.trimEnd())
      .filter((l) => l !== "");
    expect(shown, JSON.stringify(r.screen)).toEqual([`wrote 2 studies to ${r.file}`]);
  });

  it("NO_COLOR: the spinner's frames carry no colour", async () => {
    const r = await exportStudies({ NO_COLOR: "1" }, /Fetching studies: page 1/);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toContain("Fetching studies: page 1, 1 item");
    expect(r.screen).not.toMatch(/\x1b\[3\dm/);
  });

  it("TERM=dumb: plain lines, no carriage return or escape sequence", async () => {
    const r = await exportStudies({ TERM: "dumb" }, /Fetching studies: page 1, 1 item\n/);
    expect(r.code, r.screen).toBe(0);
    expect(r.ids).toHaveLength(2);
    expect(r.screen).not.toMatch(/[\r\x1b]/);
    expect(r.screen).toBe(`Fetching studies: page 1, 1 item\nwrote 2 studies to ${r.file}\n`);
  });

  it("stdout to a pipe, stderr on the terminal: no spinner drawn, nothing left behind", async () => {
    const { server, release } = heldStudies();
    release();
    const srv = await server;
    const tmp = scratch("pep-progress-");
    try {
      const words = [process.execPath, BIN, "studies", "list", "--all", "-o", "ids", "--base-url", `${srv.url}/v1`];
      const command = `stty -onlcr cols 100 rows 40; ${words.map(shellQuote).join(" ")} | head -1`;
      const screen = await new Promise<string>((resolve) => {
        const child = spawn("script", ["-qec", command, "/dev/null"], {
          stdio: ["ignore", "pipe", "pipe"],
          env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: "xterm-256color", ...tmp.env },
        });
        let out = "";
        child.stdout.on("data", (c: Buffer) => {
          out += c.toString("utf8");
        });
        child.on("close", () => resolve(out));
        setTimeout(() => child.kill(), 15_000).unref();
      });
      expect(screen).not.toMatch(/\x1b\[1G|Fetching/);
      expect(screen.trim()).toBe("pmid-90000001");
    } finally {
      tmp.cleanup();
      await srv.close();
    }
  });

  it("a terminal that reports no width: no spinner, and the run completes", async () => {
    const r = await exportStudies({}, undefined, "cols 0 rows 0");
    expect(r.code, r.screen).toBe(0);
    expect(r.ids).toHaveLength(2);
    expect(r.screen).toBe(`wrote 2 studies to ${r.file}\n`);
  });
});

describe("waits off a terminal", () => {
  it("a wait for the rate-limit window is one notice line on stderr; with -q nothing", async () => {
    const srv = await pacedStudies();
    try {
      const argv = ["studies", "list", "--all", "-o", "ndjson", "--base-url", `${srv.url}/v1`, "--no-cache"];
      // The wait is on a clock that records it instead of sleeping.
      const clock = new FakeClock(Date.now());
      const r = await inProcessPep(argv, { deps: { clock } });
      expect(r.code, r.err).toBe(0);
      expect(r.out.trim().split("\n")).toHaveLength(2);
      expect(r.err).toMatch(/^page 2: rate limit reached; waiting (2\.0|1\.\d)s for the window to reset\n$/);
      expect(clock.sleeps).toEqual([2000]);
      const quiet = await inProcessPep([...argv, "-q"], { deps: { clock: new FakeClock(Date.now()) } });
      expect(quiet.code).toBe(0);
      expect(quiet.err).toBe("");
      expect(srv.requests.length).toBe(4);
    } finally {
      await srv.close();
    }
  });
});
