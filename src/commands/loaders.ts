/**
 * Each command's code, loaded only when that command runs: the definitions
 * (`<noun>/defs.ts`) are plain data that help, man pages and completion read without
 * loading any of it, and this map is the one place that names the modules. A command
 * that is only its endpoint (a list, a record by id, or a list under a path parameter, with `calls` and no loader here)
 * runs `shared/endpoint-command.ts`. A test checks that every definition has code and
 * every loader its definition.
 */
import type { CommandDef, CommandModule } from "../core/command.js";

export const LOADERS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  api: () => import("./api/api.js"),
  "auth login": () => import("./auth/login.js"),
  "auth status": () => import("./auth/status.js"),
  "auth logout": () => import("./auth/logout.js"),
  browse: () => import("./browse/browse.js"),
  "cache path": () => import("./cache/path.js"),
  "cache size": () => import("./cache/size.js"),
  "cache clear": () => import("./cache/clear.js"),
  completion: () => import("./completion/completion.js"),
  "config list": () => import("./config/list.js"),
  "config get": () => import("./config/get.js"),
  "config set": () => import("./config/set.js"),
  "config unset": () => import("./config/unset.js"),
  "config profiles": () => import("./config/profiles.js"),
  "config path": () => import("./config/path.js"),
  mcp: () => import("./mcp/serve.js"),
  sync: () => import("./library/sync.js"),
  sql: () => import("./library/sql.js"),
  changes: () => import("./library/changes.js"),
  index: () => import("./meta/index-cmd.js"),
  health: () => import("./meta/health.js"),
  "peptides list": () => import("./peptides/list.js"),
  "peptides get": () => import("./peptides/get.js"),
  search: () => import("./research/search.js"),
  sandbox: () => import("./sandbox/serve.js"),
  "studies list": () => import("./studies/list.js"),
  "studies get": () => import("./studies/get.js"),
  "studies export": () => import("./studies/export.js"),
  "vendors list": () => import("./vendors/list.js"),
  "vendors get": () => import("./vendors/get.js"),
  "vendors compare": () => import("./vendors/compare.js"),
};

/** The code of a command: its own, or its endpoint's. */
export async function loadCommand(def: Pick<CommandDef, "path" | "calls">): Promise<CommandModule> {
  const load = LOADERS[def.path.join(" ")];
  if (load) return load();
  if (def.calls === undefined) throw new Error(`no code for pep ${def.path.join(" ")}`);
  const { endpointCommand } = await import("./shared/endpoint-command.js");
  return endpointCommand(def.calls);
}
