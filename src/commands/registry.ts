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
import { defs as completion } from "./completion/defs.js";
import { defs as mcp } from "./mcp/defs.js";
import type { CommandDef } from "./types.js";

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
};

export const COMMANDS: readonly CommandDef[] = [...meta, ...peptides, ...research, ...studies, ...vendors, ...prices, ...api, ...auth, ...config, ...sandbox, ...mcp, ...completion];
