/**
 * What `--offline` answers, checked before anything else runs (docs/offline.md): a
 * command is served when the endpoint it calls says how the library answers it (its
 * descriptor's `offline`, api/offline-answers.ts), and keeps the flags that fill the
 * query parameters that answer reproduces exactly. A command or flag outside these is
 * refused (exit 2) naming it; a parameter is answered only when its rule is one the items
 * themselves show (an equal field, a year range, the peptide -> study link), never a
 * guess at the API's matching or ordering.
 */
import { optionsOf } from "../api/command-options.js";
import { ENDPOINTS } from "../api/endpoints.js";
import type { CommandDef } from "../core/command.js";
import { UsageError } from "../core/errors.js";

/** Flags every list and batch command keeps offline: paging, batch input, opening pages. */
const COMMON = ["limit", "all", "pageSize", "cursor", "concurrency", "web", "browser"];

/** What the library answers for a command: the query parameters, and `sort`'s one accepted value (the API's default order). */
function answered(def: CommandDef): { params: readonly string[]; sort?: string } | undefined {
  const answer = def.calls === undefined ? undefined : ENDPOINTS[def.calls].offline;
  if (!answer) return undefined;
  if (!("list" in answer)) return { params: [] };
  const rules = Object.entries(answer.params ?? {});
  const sort = rules.find(([, rule]) => rule.kind === "default-sort")?.[1];
  return {
    params: rules.flatMap(([param, rule]) => (rule.kind === "default-sort" ? [] : [param])),
    ...(sort?.kind === "default-sort" ? { sort: sort.value } : {}),
  };
}

/** Commands that read the library themselves: --offline changes nothing for them. */
const LIBRARY_COMMANDS = new Set(["sql", "changes"]);

/** Why a flag is not answered offline, where a reason is worth more than "not exactly". */
const WHY: Readonly<Record<string, string>> = {
  search: "the API's text matching is its own, and the library does not reproduce it",
  researchArea: "the API's matching of area names is its own",
  shipsTo: "shipping coverage is not kept in the library",
  productCategory: "which vendors have live listings of a type is not kept in the library",
  form: "the API's matching of product forms is its own",
  param: "parameters the library does not know cannot be answered",
  sort: "the library keeps the API's default order only",
};

/** Whether the library answers this command (or it reads the library itself). */
export function servedOffline(def: CommandDef): boolean {
  return answered(def) !== undefined || LIBRARY_COMMANDS.has(def.path.join(" "));
}

function refused(what: string, why: string): UsageError {
  return new UsageError(`--offline: ${what}: ${why}`, {
    hints: ["Run it online (PEP_OFFLINE=0, or without --offline), or query the library with `pep sql`."],
  });
}

/**
 * Refuses (exit 2) an offline run the library cannot answer faithfully: the command, a
 * flag or `--fields`. Commands that need no API (config, completion) pass. With
 * `--sandbox` it reads the sandbox's own library (config/resolve.ts), as `pep --sandbox sql` does.
 */
export function refuseOffline(
  def: CommandDef,
  opts: Record<string, unknown>,
  globals: { fields?: string | undefined; sandbox?: boolean | undefined },
): void {
  const name = def.path.join(" ");
  if (def.offline || LIBRARY_COMMANDS.has(name)) return;
  const served = answered(def);
  if (!served) throw refused(`pep ${name}`, "the library cannot answer this command; it needs the API");
  if (globals.fields !== undefined)
    throw refused("--fields", "the order in which the API sends the chosen fields is not known to the library");
  for (const o of optionsOf(def)) {
    const value = opts[o.key];
    if (value === undefined || value === false || COMMON.includes(o.key)) continue;
    if (o.param !== undefined && served.params.includes(o.param)) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (o.param === "sort" && served.sort !== undefined) {
      if (value === served.sort) continue;
      throw refused(`--sort ${String(value)}`, `the library keeps the API's default order (${served.sort}) only`);
    }
    throw refused(`--${o.long}`, WHY[o.key] ?? "the library cannot answer it exactly");
  }
}
