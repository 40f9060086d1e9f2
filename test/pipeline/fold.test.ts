/**
 * What follows a table on a terminal, folded to its width: a note never parts a flag
 * from its value; the command to continue folds with ` \` continuations, its lines
 * within the width (but a word wider than a line), and joined as a shell joins them,
 * the one command, quoted words whole.
 */
import { describe, expect, it } from "vitest";
import { foldCommand, foldNote } from "../../src/cli/fold.js";

describe("folding after a table", () => {
  it("a note keeps --fields with its value", () => {
    const note = "note: vendor.name, last_seen_at hidden for lack of width; --fields id,vendor,last_seen_at shows them";
    for (const width of [30, 40, 50, 60, 80]) {
      const lines = foldNote(note, width).split("\n");
      expect(lines.join(" ")).toBe(note);
      // Parted only where the two together are wider than the line (at 30).
      expect(lines.some((l) => l.endsWith("--fields"))).toBe(width < 31);
      for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(width);
    }
  });

  it("a command folds with backslashes, pastes as one command, quoted words whole", () => {
    const command =
      "pep studies list --search 'insulin sensitivity in adults' --fields id,title --limit 20 --cursor=eyJvIjoyMCwiZiI6Ik5oSHhiRGhTYVNyRzZoSzYifQ.abc";
    for (const width of [40, 60, 80, 120]) {
      const text = foldCommand("to continue: ", command, width);
      const lines = text.split("\n");
      for (const l of lines.slice(0, -1)) expect(l.endsWith(" \\")).toBe(true);
      // A word wider than the line (the cursor) has a line of its own; a flag and value
      // too wide together are parted rather than pass the width.
      for (const l of lines) if (!/^ {2}\S+$/.test(l)) expect(l.length, l).toBeLessThanOrEqual(width);
      expect(text.replace(/ \\\n {2}/g, " ")).toBe(`to continue: ${command}`);
      expect(text).toContain("'insulin sensitivity in adults'");
      if (width >= 60) expect(lines.some((l) => / --fields \\$/.test(l) || / --limit \\$/.test(l))).toBe(false);
    }
    expect(foldCommand("to continue: ", "pep a --limit 2", 80)).toBe("to continue: pep a --limit 2");
  });
});
