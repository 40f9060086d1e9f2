/**
 * What every completion script needs to know, flattened from the command tree: for each
 * command path, the words that lead further, the flags with their descriptions, the
 * values each value-taking flag accepts, and the values of its positional arguments.
 * The bash, zsh and fish writers only spell this out in their shell's syntax.
 */
import { flagNames, type OptionDef } from "../api/options.js";
import { valueKind, type ValueKind } from "./flags.js";
import { allNodes, type CmdNode } from "./tree.js";

export interface ChildWord {
  /** The word typed: a name or an alias. */
  word: string;
  /** Path of the command it leads to, words joined by spaces. */
  path: string;
  summary: string;
  alias: boolean;
}

export interface FlagWord {
  names: string[];
  description: string;
  value: ValueKind;
}

export interface NodeData {
  /** Words after `pep`, joined by spaces; `""` for the root. */
  path: string;
  children: ChildWord[];
  /** Own flags and global ones, in help order. */
  flags: FlagWord[];
  /** Values of each positional argument by position; `null` = anything. */
  args: (readonly string[] | null)[];
  variadic: boolean;
}

function flagWord(o: OptionDef): FlagWord {
  return { names: flagNames(o), description: o.description, value: valueKind(o) };
}

export function completionData(root: CmdNode): NodeData[] {
  return allNodes(root).map((node) => {
    const children: ChildWord[] = [];
    for (const c of node.children) {
      const path = c.words.join(" ");
      children.push({ word: c.name, path, summary: c.summary, alias: false });
      for (const a of c.aliases) children.push({ word: a, path, summary: c.summary, alias: true });
    }
    const own = node.options.map(flagWord);
    const ownNames = new Set(own.flatMap((f) => f.names));
    const globals = node.globals.map(flagWord).filter((f) => !f.names.some((n) => ownNames.has(n)));
    return {
      path: node.words.join(" "),
      children,
      flags: [...own, ...globals],
      args: node.args,
      variadic: node.variadic,
    };
  });
}

/** Values of the positional argument at `index` (0-based), or null. */
export function argValues(node: NodeData, index: number): readonly string[] | null {
  if (index < node.args.length) return node.args[index] ?? null;
  if (node.variadic && node.args.length) return node.args[node.args.length - 1] ?? null;
  return null;
}

/** Words that go into a script unquoted must be plain: letters, digits and `-_.,:@/+=`. */
export function checkWord(word: string): string {
  if (!/^[\w.,:@/+=-]+$/.test(word))
    throw new Error(`completion word not plain enough for a shell script: ${JSON.stringify(word)}`);
  return word;
}

/** Single-quoted for sh, zsh and fish alike (no single quote inside in fish either). */
export function singleQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
