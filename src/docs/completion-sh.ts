/**
 * The `case` tables the bash and zsh completion scripts share (zsh reads the same
 * syntax): where a word leads from a command path, which words a flag's value allows,
 * and which values a positional argument allows. Each answer is left in `_pep_r`.
 */
import { argValues, checkWord, singleQuote, type NodeData } from "./completion-data.js";
import type { ValueKind } from "./flags.js";

function valueWords(v: ValueKind): string | undefined {
  if (v.kind === "words") return v.words.map(checkWord).join(" ");
  if (v.kind === "file") return "@file";
  if (v.kind === "any") return "@any";
  return undefined;
}

const key = (path: string, word: string) => singleQuote(`${path}|${word}`);

/** `_pep_node PATH WORD`: the command path WORD leads to from PATH, or empty. */
export function nodeFunction(nodes: readonly NodeData[]): string[] {
  const out = ["_pep_node() {", "  _pep_r=", '  case "$1|$2" in'];
  for (const n of nodes)
    for (const c of n.children) out.push(`    ${key(n.path, checkWord(c.word))}) _pep_r=${singleQuote(c.path)} ;;`);
  out.push("  esac", "}", "");
  return out;
}

/** `_pep_value PATH FLAG`: succeeds when FLAG takes a value; its allowed words (@file, @any). */
export function valueFunction(nodes: readonly NodeData[]): string[] {
  const out = ["_pep_value() {", "  _pep_r=", '  case "$1|$2" in'];
  for (const n of nodes) {
    for (const f of n.flags) {
      const words = valueWords(f.value);
      if (words === undefined) continue;
      out.push(
        `    ${f.names.map((name) => key(n.path, checkWord(name))).join("|")}) _pep_r=${singleQuote(words)}; return 0 ;;`,
      );
    }
  }
  out.push("  esac", "  return 1", "}", "");
  return out;
}

/** `_pep_arg PATH INDEX`: the allowed values of positional argument INDEX. */
export function argFunction(nodes: readonly NodeData[]): string[] {
  const out = ["_pep_arg() {", "  _pep_r=", '  case "$1|$2" in'];
  for (const n of nodes) {
    const count = Math.max(n.args.length, 1);
    for (let i = 0; i < count; i++) {
      const values = argValues(n, i);
      if (values) out.push(`    ${key(n.path, String(i))}) _pep_r=${singleQuote(values.map(checkWord).join(" "))} ;;`);
    }
    if (n.variadic) {
      const values = argValues(n, n.args.length);
      if (values)
        out.push(`    ${singleQuote(`${n.path}|`)}*) _pep_r=${singleQuote(values.map(checkWord).join(" "))} ;;`);
    }
  }
  out.push("  esac", "}", "");
  return out;
}
