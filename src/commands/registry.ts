/**
 * Every command of `pep`, as plain data. Importing this loads no command code:
 * `loaders.ts` imports a command's code when that command runs.
 */
import { defs as meta } from "./meta/defs.js";
import { defs as peptides } from "./peptides/defs.js";
import { defs as research } from "./research/defs.js";
import { defs as studies } from "./studies/defs.js";
import { defs as sandbox } from "./sandbox/defs.js";
import { defs as vendors } from "./vendors/defs.js";
import { defs as prices } from "./prices/defs.js";
import { defs as api } from "./api/defs.js";
import { defs as browse } from "./browse/defs.js";
import { defs as auth } from "./auth/defs.js";
import { defs as config } from "./config/defs.js";
import { defs as cache } from "./cache/defs.js";
import { defs as completion } from "./completion/defs.js";
import { optionsOf } from "../api/command-options.js";
import { defs as mcp } from "./mcp/defs.js";
import { defs as library } from "./library/defs.js";
import type { CommandDef, GroupInfo } from "../core/command.js";
import { GLOBAL_OPTIONS } from "../api/globals.js";
import type { DocSources } from "../docs/tree.js";

export type { GroupInfo } from "../core/command.js";

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
  ...browse,
  ...api,
  ...auth,
  ...config,
  ...cache,
  ...library,
  ...sandbox,
  ...mcp,
  ...completion,
];

/** Every option of a definition, list options included. */
export { optionsOf } from "../api/command-options.js";

/** The definitions of this build, as the man page and completion generators read them. */
export function docSources(version: string): DocSources {
  return { version, commands: COMMANDS, groups: GROUPS, globalOptions: GLOBAL_OPTIONS, optionsOf };
}
