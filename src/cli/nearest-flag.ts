/**
 * An unknown flag that is part of a known one: `--evidence` is `--evidence-level`,
 * `--level` too, `--research` is `--research-area`. Commander suggests by spelling
 * only, which a shortened name is too far from. Loaded only when a flag is refused.
 */
import { optionsOf } from "../api/command-options.js";
import { GLOBAL_OPTIONS } from "../api/globals.js";
import type { CommandDef, OptionDef } from "../core/command.js";

const wordsOf = (flag: string) => flag.replace(/^-+/, "").toLowerCase().split(/[-_]+/).filter(Boolean);

/**
 * The flags of the command (its own, its list's, the global ones) whose words hold every
 * word of `flag` (each as a word's start): `--evidence` -> `--evidence-level`. At most
 * three, the command's own first, then `also` (commander's suggestion by spelling).
 */
export function flagsContaining(flag: string, def: CommandDef | undefined, also?: string): string[] {
  const typed = wordsOf(flag);
  // A word of two letters or fewer is too little to go on.
  if (typed.length === 0 || typed.some((t) => t.length < 3)) return [];
  const longs = [...(def ? optionsOf(def) : []), ...GLOBAL_OPTIONS]
    .filter((o: OptionDef) => o.hidden !== true)
    .map((o) => `--${o.long}`);
  const found = longs.filter((long) => {
    const words = wordsOf(long);
    return typed.every((t) => words.some((w) => w.startsWith(t)));
  });
  return [...new Set([...found, ...(also ? [also] : [])])].filter((f) => f !== flag).slice(0, 3);
}
