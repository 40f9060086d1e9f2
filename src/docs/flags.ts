/**
 * Reads a commander flags string (`-o, --output <format>`, `--no-retry`,
 * `-F, --field <key=value>`) into its names and value placeholder, for man pages and
 * completion scripts, so neither re-parses the same string its own way.
 */
import type { OptionDef } from "../commands/types.js";

export interface FlagInfo {
  /** `-o`, when the flag has a short form. */
  short?: string;
  /** `--output`. */
  long?: string;
  /** Every name: `["-o", "--output"]`. */
  names: string[];
  /** The placeholder inside `<…>` or `[…]` when the flag takes a value. */
  value?: string;
  /** The value is optional (`[…]`). */
  optionalValue: boolean;
}

export function parseFlags(flags: string): FlagInfo {
  const names: string[] = [];
  let value: string | undefined;
  let optionalValue = false;
  const m = /[<[]([^>\]]*)[>\]]/.exec(flags);
  if (m) {
    value = m[1]!;
    optionalValue = m[0].startsWith("[");
  }
  const head = m ? flags.slice(0, m.index) : flags;
  for (const token of head.split(/[\s,|]+/)) if (token.startsWith("-")) names.push(token);
  const info: FlagInfo = { names, optionalValue };
  const short = names.find((n) => /^-[^-]/.test(n));
  const long = names.find((n) => n.startsWith("--"));
  if (short) info.short = short;
  if (long) info.long = long;
  if (value !== undefined) info.value = value;
  return info;
}

/** What a flag's value is, for completion: listed words, a file name, or anything. */
export type ValueKind = { kind: "none" } | { kind: "words"; words: readonly string[] } | { kind: "file" } | { kind: "any" };

/** Placeholders that name a file (`<path>`, `<path|->`, `<file>`). */
const FILE_PLACEHOLDER = /^(path|file|dir)(\|-)?$/;

export function valueKind(o: OptionDef): ValueKind {
  const info = parseFlags(o.flags);
  if (info.value === undefined) return { kind: "none" };
  if (o.choices?.length) return { kind: "words", words: o.choices };
  if (FILE_PLACEHOLDER.test(info.value)) return { kind: "file" };
  return { kind: "any" };
}
