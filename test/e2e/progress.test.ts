/**
 * The spinner of a long list run on a real terminal (a pseudo-terminal from util-linux
 * `script`) and the lines that interrupt it: a retry notice takes the spinner line down
 * first, so it starts on a clean line instead of being glued to a spinner frame.
 */
import { spawnSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, isBuilt, scratch } from "../helpers/cli.js";
import { delay, envelope, errorBody, sendJson, startServer } from "../helpers/server.js";

const hasScript = spawnSync("script", ["--version"]).status === 0;
const slowStudies = () => {
  let second = 0;
  return startServer({
    "/v1/studies": async (req, res) => {
      if (!req.query.get("cursor")) return sendJson(res, 200, envelope([study(1)], { pagination: { next_cursor: "c2", has_more: true } }));
      second++;
      // Slow enough for the spinner (it shows after 300 ms), then one 503.
      await delay(900);
      if (second === 1) return sendJson(res, 503, errorBody("unavailable", "try later", "req_busy"), { "Retry-After": "0" });
      return sendJson(res, 200, envelope([study(2)], { pagination: { next_cursor: null, has_more: false } }));
    },
  });
};
/** What a terminal shows after the bytes: a tiny emulator of the sequences ora writes. */
function screenLines(raw: string): string[] {
  const lines: string[] = [""];
  let row = 0;
  let col = 0;
  const re = /\x1b\[([0-9;?]*)([A-Za-z])|\r|\n|[^\x1b\r\n]/gu;
  for (const m of raw.matchAll(re)) {
    const t = m[0];
    if (t === "\r") col = 0;
    else if (t === "\n") {
      row++;
      if (lines.length <= row) lines.push("");
      col = 0;
    } else if (m[2] !== undefined) {
      const n = Number.parseInt(m[1] || "1", 10) || 1;
      if (m[2] === "G") col = n - 1;
      else if (m[2] === "A") row = Math.max(0, row - n);
      else if (m[2] === "K") lines[row] = [...lines[row]!].slice(0, col).join("");
    } else {
      const chars = [...lines[row]!];
      while (chars.length < col) chars.push(" ");
      chars[col] = t;
      lines[row] = chars.join("");
      col++;
    }
  }
  return lines;
}
const study = (n: number) => ({ id: `pmid-${90000000 + n}`, title: `Study ${n}`, publication_year: 2020 });
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `pep` with stdin, stdout and stderr on a pseudo-terminal; resolves to what the terminal showed. */
function onTerminal(argv: string[], env: Record<string, string>, size = "rows 40 cols 100"): Promise<{ code: number | null; screen: string }> {
  // Without stty the pseudo-terminal reports 0 columns, as some CI terminals do.
  const command = `${size ? `stty ${size}; ` : ""}${[process.execPath, BIN, ...argv].map(quote).join(" ")}`;
  return new Promise((resolve) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env, COLUMNS: "100", TERM: "xterm-256color" } });
    let screen = "";
    child.stdout.on("data", (c: Buffer) => (screen += c.toString("utf8")));
    child.on("close", (code) => resolve({ code, screen }));
    setTimeout(() => child.kill(), 15_000).unref();
  });
}

describe.skipIf(!hasScript || !isBuilt())("spinner and notices on a terminal", () => {
  it("a retry notice during a slow page starts on its own line and the run completes", async () => {
    const srv = await slowStudies();
    const tmp = scratch("pep-progress-");
    try {
      const file = path.join(tmp.dir, "out.ndjson");
      const r = await onTerminal(["studies", "list", "--all", "-o", "ndjson", "--file", file, "--base-url", `${srv.url}/v1`, "--no-cache"], tmp.env);
      expect(r.code, r.screen).toBe(0);
      const ids = readFileSync(file, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { id: string }).id);
      expect(ids).toEqual(["pmid-90000001", "pmid-90000002"]);
      expect(r.screen).toContain("Fetching studies");
      // The notice has a line to itself; the spinner's last frame was erased at the end.
      const shown = screenLines(r.screen).map((l) => l.trimEnd());
      expect(shown, JSON.stringify(r.screen)).toContain("service unavailable (HTTP 503); retrying in 0 ms (1/3)");
      expect(shown.filter((l) => l.includes("Fetching studies")), JSON.stringify(shown)).toEqual([]);
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
      const r = await onTerminal(["studies", "list", "--all", "-o", "ndjson", "--file", file, "--base-url", `${srv.url}/v1`, "--no-cache"], tmp.env, "");
      expect(r.code, r.screen).toBe(0);
      expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(2);
      expect(r.screen).not.toContain("Fetching studies");
      expect(r.screen).toContain("retrying in");
    } finally {
      tmp.cleanup();
      await srv.close();
    }
  });
});
