/**
 * What a flag's value is, for completion: listed words, a file name, or anything. Read
 * from the option definition (`api/options.ts`), never from a flag string.
 */
import type { OptionDef } from "../api/options.js";

export type ValueKind =
  | { kind: "none" }
  | { kind: "words"; words: readonly string[] }
  | { kind: "file" }
  | { kind: "any" };

/** Placeholders that name a file (`<path>`, `<path|->`, `<file>`). */
const FILE_PLACEHOLDER = /^(path|file|dir)(\|-)?$/;

export function valueKind(o: OptionDef): ValueKind {
  if (o.value === undefined) return { kind: "none" };
  if (o.choices?.length) return { kind: "words", words: o.choices };
  if (FILE_PLACEHOLDER.test(o.value)) return { kind: "file" };
  return { kind: "any" };
}
