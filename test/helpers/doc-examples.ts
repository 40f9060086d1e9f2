/**
 * The examples of the README and the man pages, and a small reading of them as shell
 * lines, so that test/docs/examples.test.ts can run each one against the sandbox.
 *
 * The extraction rule:
 * - README.md and docs/*.md: every line of a ```sh block that runs pep (at its start, after `npx`,
 *   after `NAME=value` assignments, after `&&` or `|`, or inside `$(…)` or `<(…)`), a line
 *   ending in ` \` joined with the next. Lines that do not run pep (`npm install`) are the
 *   reader's own and are not examples.
 * - man/*.1: every line of the literal (`.nf` … `.fi`) blocks of the EXAMPLES sections that
 *   runs pep, read back from roff.
 * A comment `# exit N` says the example shows a failure with that exit code; `# real API`
 * says it names records of the real service, which the synthetic data does not hold.
 */
import { pepWords } from "./examples.js";

export interface DocExample {
  /** `README.md:42`, `man/pep-cache.1:190`. */
  where: string;
  line: string;
  /** The markdown heading (`## …`) it is under, if any. */
  section?: string;
}

/** The shell lines of a markdown file's ```sh blocks that run pep. */
export function markdownExamples(file: string, text: string): DocExample[] {
  const found: DocExample[] = [];
  let fence: string | undefined;
  let pending: { line: string; at: number } | undefined;
  let section: string | undefined;
  text.split("\n").forEach((raw, i) => {
    if (fence === undefined && /^## /.test(raw)) section = raw.slice(3).trim();
    const opening = /^\s*```(\w*)\s*$/.exec(raw);
    if (opening) {
      fence = fence === undefined ? opening[1] || "text" : undefined;
      return;
    }
    if (fence !== "sh") return;
    const line = raw.trim();
    const joined = pending ? `${pending.line} ${line}` : line;
    const at = pending?.at ?? i + 1;
    if (line.endsWith(" \\")) {
      pending = { line: joined.slice(0, -2).trimEnd(), at };
      return;
    }
    pending = undefined;
    if (joined === "" || joined.startsWith("#")) return;
    if (pepWords(joined)) found.push({ where: `${file}:${at}`, line: joined, ...(section ? { section } : {}) });
  });
  return found;
}

/** Roff text back to what it shows: `\-` as `-`, `\e` as `\`, fonts and guards removed. */
export function unRoff(line: string): string {
  return line
    .replace(/\\&/g, "")
    .replace(/\\f[BIRP]/g, "")
    .replace(/\\\(dq/g, '"')
    .replace(/\\\(ga/g, "`")
    .replace(/\\\[u([0-9A-F]{4,6})\]/g, (_m, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/\\-/g, "-")
    .replace(/\\e/g, "\\");
}

/** The lines of a man page's EXAMPLES literal blocks that run pep. */
export function manExamples(file: string, roff: string): DocExample[] {
  const found: DocExample[] = [];
  let section = "";
  let literal = false;
  roff.split("\n").forEach((raw, i) => {
    if (raw.startsWith(".SH ")) section = raw.slice(4).replace(/"/g, "").trim();
    else if (raw === ".nf") literal = true;
    else if (raw === ".fi") literal = false;
    else if (literal && section === "EXAMPLES") {
      const line = unRoff(raw).trim();
      if (pepWords(line)) found.push({ where: `${file}:${i + 1}`, line });
    }
  });
  return found;
}

/** What an example's comment says: the exit code it shows, and whether it needs the real API. */
export function expectationOf(line: string): { exit: number | undefined; realApi: boolean } {
  const comment = /\s#\s(.*)$/.exec(line)?.[1] ?? "";
  const exit = /^exit (\d+)\b/.exec(comment)?.[1];
  return { exit: exit === undefined ? undefined : Number(exit), realApi: /\breal API\b/.test(comment) };
}

/** One command of a pipeline: its words, its assignments and its redirections. */
export interface Segment {
  words: string[];
  env: Record<string, string>;
  stdin?: string;
  stdout?: string;
  stderr?: string;
}

type Token = { op: string } | { word: string };

/** `$NAME`, `${NAME}` and `${name[1]}` from `env` (unset: empty); `~/` at a word's start is HOME. */
function expand(text: string, env: Record<string, string>): string {
  return text
    .replace(/\$\{(\w+)(?:\[[^\]]*\])?\}/g, (_m, name: string) => env[name] ?? "")
    .replace(/\$(\w+)/g, (_m, name: string) => env[name] ?? "");
}

/** A shell line as words and operators (`&&`, `|`, `>`, `2>`, `<`), quotes removed, variables expanded. */
export function tokens(line: string, env: Record<string, string>): Token[] {
  const out: Token[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  const flush = () => {
    if (word !== undefined) out.push({ word });
    word = undefined;
  };
  const text = line.replace(/\s#\s.*$/, "");
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (quote === '"' && ch === "$") {
        const m = /^\$(\{[^}]*\}|\w+)/.exec(text.slice(i));
        word = (word ?? "") + (m ? expand(m[0], env) : "$");
        if (m) i += m[0].length - 1;
      } else word = (word ?? "") + ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= "";
    } else if (/\s/.test(ch)) flush();
    else if (text.startsWith("&&", i) || text.startsWith("2>", i) || "|<>".includes(ch)) {
      if (ch === "2" && word !== undefined) {
        word += ch;
        continue;
      }
      flush();
      const op = text.startsWith("&&", i) ? "&&" : text.startsWith("2>", i) ? "2>" : ch;
      out.push({ op });
      i += op.length - 1;
    } else if (ch === "$") {
      const m = /^\$(\{[^}]*\}|\w+)/.exec(text.slice(i));
      word = (word ?? "") + (m ? expand(m[0], env) : "$");
      if (m) i += m[0].length - 1;
    } else if (ch === "~" && word === undefined && text[i + 1] === "/") word = env.HOME ?? "~";
    else word = (word ?? "") + ch;
  }
  flush();
  return out;
}

/** The line as commands joined by `&&`, each a pipeline of segments. */
export function commandsOf(line: string, env: Record<string, string>): Segment[][] {
  const commands: Segment[][] = [[]];
  let seg: Segment = { words: [], env: {} };
  let redirect: "stdin" | "stdout" | "stderr" | undefined;
  const close = () => {
    if (seg.words.length > 0) commands[commands.length - 1]!.push(seg);
    seg = { words: [], env: {} };
  };
  for (const t of tokens(line, env)) {
    if ("op" in t) {
      if (t.op === "&&") {
        close();
        commands.push([]);
      } else if (t.op === "|") close();
      else redirect = t.op === "<" ? "stdin" : t.op === ">" ? "stdout" : "stderr";
      continue;
    }
    if (redirect) {
      seg[redirect] = t.word;
      redirect = undefined;
    } else if (seg.words.length === 0 && /^[A-Za-z_]\w*=/.test(t.word)) {
      const eq = t.word.indexOf("=");
      seg.env[t.word.slice(0, eq)] = t.word.slice(eq + 1);
    } else if (!(seg.words.length === 0 && t.word === "!")) seg.words.push(t.word);
  }
  close();
  for (const command of commands)
    for (const s of command) if (s.words[0] === "npx" && s.words[1] === "pep") s.words.shift();
  return commands.filter((c) => c.length > 0);
}

/** `$(pep …)` and `<(pep …)` in a line: each with its pep command (no nesting). */
export function substitutions(line: string): { text: string; kind: "$" | "<"; inner: string }[] {
  const found: { text: string; kind: "$" | "<"; inner: string }[] = [];
  for (const m of line.matchAll(/([$<])\((pep\s[^()]*)\)/g))
    found.push({ text: m[0], kind: m[1] as "$" | "<", inner: m[2]! });
  return found;
}
