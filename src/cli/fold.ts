/**
 * What a table leaves on a terminal, folded to its width: the notes at spaces, a flag
 * never apart from its value (`--fields id,journal` stays on one line); the command to
 * continue at its words, each line but the last ending in ` \`, so that the lines pasted
 * into a shell are still the one command.
 */

/** A flag that takes the word after it (`--fields`, `-o`), not one ending a clause (`--fields,`). */
const FLAG = /^--?[A-Za-z][\w-]*$/;

/** Lines of at most `width` columns from units joined by spaces; a unit wider keeps a line of its own. */
function fill(units: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const unit of units) {
    if (line !== "" && line.length + 1 + unit.length > width) {
      lines.push(line);
      line = unit;
    } else line = line === "" ? unit : `${line} ${unit}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/**
 * `--fields id,journal shows it` as units: `--fields id,journal`, `shows`, `it`; a flag
 * and value together wider than `max` stay two units (each then starts a line).
 */
function glued(words: readonly string[], max: number): string[] {
  const units: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    if (FLAG.test(w) && next !== undefined && !next.startsWith("-") && w.length + 1 + next.length <= max) {
      units.push(`${w} ${next}`);
      i++;
    } else units.push(w);
  }
  return units;
}

/** A note folded at spaces to `width`, a flag kept with its value. */
export function foldNote(text: string, width: number): string {
  return fill(glued(text.split(" "), width), width).join("\n");
}

/**
 * The shell words of a command as pep quotes it (output/shell-quote.ts): spaces outside
 * single or double quotes split it; a backslash escapes the next character.
 */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      word += c;
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < command.length) word += command[++i];
    } else if (c === "'" || c === '"') {
      quote = c;
      word += c;
    } else if (c === "\\" && i + 1 < command.length) word += c + command[++i];
    else if (c === " ") {
      if (word !== "") words.push(word);
      word = "";
    } else word += c;
  }
  if (word !== "") words.push(word);
  return words;
}

/**
 * `<lead><command>` folded to `width`: at the command's words, a flag with its value,
 * each line but the last ending in ` \` and the next indented, so that it pastes as one
 * command. A word wider than the line (a long cursor) has a line of its own.
 */
export function foldCommand(lead: string, command: string, width: number): string {
  const room = Math.max(1, width - 2);
  const units = glued(shellWords(command), room - 2);
  if (units.length === 0) return lead;
  const lines: string[] = [];
  let line = lead + units[0]!;
  for (const unit of units.slice(1)) {
    if (line.length + 1 + unit.length > room) {
      lines.push(`${line} \\`);
      line = `  ${unit}`;
    } else line = `${line} ${unit}`;
  }
  lines.push(line);
  return lines.join("\n");
}
