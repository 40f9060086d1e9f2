/**
 * `pep mcp` typed at a terminal says what it waits for, and the first Ctrl-C ends it
 * (exit 130), as its notice promises. Spawns the real executable on a pseudo-terminal
 * (util-linux `script`): the terminal turns the typed Ctrl-C into SIGINT.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, isBuilt, scratch } from "../helpers/cli.js";
import { hasScript, shellQuote } from "../helpers/terminal.js";

describe.skipIf(!hasScript || !isBuilt())("pep mcp on a terminal", () => {
  it("stops on the first Ctrl-C with exit 130", async () => {
    const tmp = scratch("pep-mcp-tty-");
    try {
      const command = `stty rows 24 cols 100; ${[process.execPath, BIN, "--sandbox", "mcp"].map(shellQuote).join(" ")}`;
      const child = spawn("script", ["-qec", command, "/dev/null"], {
        stdio: ["pipe", "pipe", "pipe"],
        env: { ...process.env, ...tmp.env, TERM: "xterm-256color" },
      });
      let screen = "";
      let typed = 0;
      child.stdout.on("data", (c: Buffer) => {
        screen += c.toString("utf8");
        // One Ctrl-C, once the notice shows that pep is waiting.
        if (typed === 0 && screen.includes("Ctrl-C stops it")) {
          typed++;
          child.stdin.write("\x03");
        }
      });
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearTimeout(killer);
      expect(typed, screen).toBe(1);
      expect(code, screen).toBe(130);
      expect(screen).toContain("interrupted");
    } finally {
      tmp.cleanup();
    }
  });
});
