/**
 * The spinner of a long list run on a real terminal (a pseudo-terminal from util-linux
 * `script`), and the waits it tells: a retry's back-off and a wait for the rate-limit
 * window show in its line and are erased with it; off a terminal a wait is one notice
 * line; with -q nothing; NO_COLOR and TERM=dumb are obeyed.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inProcessPep, isBuilt, scratch } from "../helpers/cli.js";
import { delay, envelope, errorBody, sendJson, startServer } from "../helpers/server.js";
import { hasScript, onTerminal, screenLines } from "../helpers/terminal.js";
import { FakeClock } from "../http/fake-clock.js";

const study = (n: number) => ({ id: `pmid-${90000000 + n}`, title: `Study ${n}`, publication_year: 2020 });
/** Two pages; the second answers one 503 with this Retry-After (the spinner shows for the back-off), then the page. */
const slowStudies = (retryAfter = "1") => {
  let second = 0;
  return startServer({
    "/v1/studies": async (req, res) => {
      if (!req.query.get("cursor"))
        return sendJson(res, 200, envelope([study(1)], { pagination: { next_cursor: "c2", has_more: true } }));
      second++;
      await delay(50);
      if (second === 1)
        return sendJson(res, 503, errorBody("unavailable", "try later", "req_busy"), { "Retry-After": retryAfter });
      return sendJson(res, 200, envelope([study(2)], { pagination: { next_cursor: null, has_more: false } }));
    },
  });
};
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

describe.skipIf(!hasScript || !isBuilt())("spinner and notices on a terminal", () => {
  it("a retry's back-off shows in the spinner's line and is erased with it; the run completes", async () => {
    const srv = await slowStudies();
    const tmp = scratch("pep-progress-");
    try {
      const file = path.join(tmp.dir, "out.ndjson");
      const r = await onTerminal(
        ["studies", "list", "--all", "-o", "ndjson", "--file", file, "--base-url", `${srv.url}/v1`, "--no-cache"],
        tmp.env,
      );
      expect(r.code, r.screen).toBe(0);
      const ids = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { id: string }).id);
      expect(ids).toEqual(["pmid-90000001", "pmid-90000002"]);
      expect(r.screen).toContain("Fetching studies");
      expect(
        frames(r.screen).some((f) =>
          /Fetching studies: page 1, 1 item · service unavailable \(HTTP 503\); retrying in (1\.0s|\d+ ms) \(1\/3\)/.test(
            f,
          ),
        ),
        r.screen,
      ).toBe(true);
      // Nothing is left on the screen but the line saying where the output went: the
      // spinner and its wait were erased at the end.
      const shown = screenLines(r.screen)
        .map((l) => l.trimEnd())
        .filter((l) => l !== "");
      expect(shown, JSON.stringify(r.screen)).toEqual([`wrote 2 studies to ${file}`]);
    } finally {
      tmp.cleanup();
      await srv.close();
    }
  });

  it("a terminal that reports no width gets no spinner, and the run still completes", async () => {
    const srv = await slowStudies();
    const tmp = scratch("pep-progress-");
    try {
      const file = path.join(tmp.dir, "out.ndjson");
      const r = await onTerminal(
        ["studies", "list", "--all", "-o", "ndjson", "--file", file, "--base-url", `${srv.url}/v1`, "--no-cache"],
        tmp.env,
        { size: "" },
      );
      // Without a line to draw in, the retry is a notice line.
      expect(r.code, r.screen).toBe(0);
      expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(2);
      expect(r.screen).not.toContain("Fetching studies");
      expect(r.screen).toContain("retrying in");
    } finally {
      tmp.cleanup();
      await srv.close();
    }
  });

  it("a wait for the rate-limit window shows in the spinner's line, counting down, then clears", async () => {
    const srv = await pacedStudies();
    const tmp = scratch("pep-progress-");
    try {
      const file = path.join(tmp.dir, "out.ndjson");
      const r = await onTerminal(
        ["studies", "list", "--all", "-o", "ndjson", "--file", file, "--base-url", `${srv.url}/v1`, "--no-cache"],
        tmp.env,
      );
      expect(r.code, r.screen).toBe(0);
      expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(2);
      const waits = frames(r.screen).filter((f) => f.includes("rate limit reached; waiting"));
      expect(waits.length, r.screen).toBeGreaterThan(1);
      expect(waits[0]).toMatch(
        /Fetching studies: page 1, 1 item · rate limit reached; waiting (2\.0|1\.\d)s for the window to reset/,
      );
      // It counts down.
      expect(new Set(waits.map((f) => /waiting (\S+)/.exec(f)![1])).size).toBeGreaterThan(1);
      expect(
        screenLines(r.screen).filter((l) => l.trim() !== ""),
        JSON.stringify(r.screen),
      ).toEqual([expect.stringMatching(/^wrote 2 studies to \S+\s*$/)]);
    } finally {
      tmp.cleanup();
      await srv.close();
    }
  });

  it("NO_COLOR: the spinner's frames carry no colour; TERM=dumb: no spinner, a wait is one notice line", async () => {
    const srv = await pacedStudies();
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
      const plain = await onTerminal(argv, { ...tmp.env, NO_COLOR: "1" });
      expect(plain.code, plain.screen).toBe(0);
      expect(plain.screen).toContain("rate limit reached; waiting");
      expect(plain.screen).not.toMatch(/\x1b\[3\dm/);
      const dumb = await onTerminal(argv, { ...tmp.env, TERM: "dumb" });
      expect(dumb.code, dumb.screen).toBe(0);
      expect(dumb.screen).not.toContain("Fetching studies");
      expect(dumb.screen).not.toContain("\x1b[");
      expect(screenLines(dumb.screen).filter((l) => l.trim() !== "")).toEqual([
        expect.stringMatching(/^rate limit reached; waiting (2\.0|1\.\d)s for the window to reset\s*$/),
        expect.stringMatching(/^wrote 2 studies to \S+\s*$/),
      ]);
    } finally {
      tmp.cleanup();
      await srv.close();
    }
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
      expect(r.err).toMatch(/^rate limit reached; waiting (2\.0|1\.\d)s for the window to reset\n$/);
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
