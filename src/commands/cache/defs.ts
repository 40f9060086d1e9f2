/** `pep cache path|size|clear`: the ETag cache folder, how much it holds, emptying it. */
import type { CommandDef } from "../../core/command.js";

const WHERE =
  "The ETag cache lives in $PEP_CACHE_DIR, else $XDG_CACHE_HOME/pep, else ~/.cache/pep. It holds at most cache_max_mb megabytes (a profile key, or PEP_CACHE_MAX_MB; default 50): past that, the least recently used entries go first.";

export const defs: CommandDef[] = [
  {
    path: ["cache", "path"],
    summary: "Print the ETag cache folder (it may not exist yet)",
    description: WHERE,
    offline: true,
    examples: ["pep cache path", 'du -sh "$(pep cache path)"'],
  },
  {
    path: ["cache", "size"],
    isDefault: true,
    summary: "Show how many entries the ETag cache holds, their size and its limit",
    description: `${WHERE}\nWith -o json: {"path", "entries", "bytes", "max_bytes"}.`,
    offline: true,
    examples: ["pep cache size", "pep cache size -o json | jq .bytes"],
  },
  {
    path: ["cache", "clear"],
    summary: "Remove every entry of the ETag cache, and the compiled code kept beside it",
    description: `${WHERE}\nThe next request of each kind is sent without If-None-Match and stored again. The compiled code pep keeps in code-cache/ and node-compile-cache/ there goes too; the next run compiles again. Only pep's own entries are removed; the folder stays.`,
    offline: true,
    examples: ["pep cache clear", "pep cache clear -q && pep cache size"],
  },
];
