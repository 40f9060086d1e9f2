/**
 * Every command of `pep`, as plain data. Importing this loads no command code: each
 * definition's `load()` imports it when that command runs.
 */
import { defs as meta } from "./meta/defs.js";
import { defs as peptides } from "./peptides/defs.js";
import { defs as research } from "./research/defs.js";
import { defs as studies } from "./studies/defs.js";
import { defs as sandbox } from "./sandbox/defs.js";
import { defs as vendors } from "./vendors/defs.js";
import { defs as prices } from "./prices/defs.js";
import { defs as api } from "./api/defs.js";
import { defs as auth } from "./auth/defs.js";
import { defs as config } from "./config/defs.js";
import { defs as cache } from "./cache/defs.js";
import { defs as completion } from "./completion/defs.js";
import { LIMITS } from "../api/enums.js";
import { listOptions, type OptionDef } from "../api/options.js";
import { defs as mcp } from "./mcp/defs.js";
import type { CommandDef } from "../core/command.js";

export interface GroupInfo {
  summary: string;
  aliases?: readonly string[];
  examples?: readonly string[];
}

/** Command groups (`pep peptides …`), for help and man pages. */
export const GROUPS: Record<string, GroupInfo> = {
  peptides: { summary: "Peptide research profiles, their studies, research summaries and regulatory status" },
  studies: { summary: "Studies cited by the profiles: list, look up, export for reference managers" },
  vendors: { summary: "The vendor directory (needs a key with vendors:read)" },
  auth: { summary: "Store, check and remove the API key" },
  config: { summary: "Read and change settings and profiles" },
  cache: { summary: "The ETag cache: where it is, how big (it is bounded), empty it" },
};

export const COMMANDS: readonly CommandDef[] = [
  ...meta,
  ...peptides,
  ...research,
  ...studies,
  ...vendors,
  ...prices,
  ...api,
  ...auth,
  ...config,
  ...cache,
  ...sandbox,
  ...mcp,
  ...completion,
];

/** Every option of a definition, list options included. */
export function optionsOf(def: CommandDef): OptionDef[] {
  return [...(def.options ?? []), ...(def.list ? listOptions(def.defaultLimit ?? LIMITS.pageDefault) : [])];
}
