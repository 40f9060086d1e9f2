/**
 * What `--offline` answers, checked before anything else runs (docs/offline.md): the
 * commands the library serves and, for each, the flags whose answer it reproduces
 * exactly. A command or flag outside these is refused (exit 2) naming it; a flag is
 * answered only when its rule is one the items themselves show (an equal field, a year
 * range, the peptide -> study link), never a guess at the API's matching or ordering.
 */
import { optionsOf } from "../api/command-options.js";
import type { CommandDef } from "../core/command.js";
import { UsageError } from "../core/errors.js";

/** Flags every list and batch command keeps offline: paging, batch input, opening pages. */
const COMMON = ["limit", "all", "pageSize", "cursor", "concurrency", "web", "browser"];

/** Per command: the flags the library answers, with `sort`'s one accepted value (the API's default order). */
const ANSWERED: Readonly<Record<string, { flags: readonly string[]; sort?: string }>> = {
  "peptides list": { flags: ["category", "evidenceLevel", "regulatoryStatus"], sort: "name" },
  "peptides get": { flags: [] },
  "peptides studies": { flags: [] },
  "peptides research": { flags: [] },
  "peptides regulatory": { flags: [] },
  "studies list": { flags: ["peptide", "evidenceClassification", "yearFrom", "yearTo"], sort: "newest" },
  "studies export": { flags: ["peptide", "evidenceClassification", "yearFrom", "yearTo"], sort: "newest" },
  "studies get": { flags: [] },
  "vendors list": { flags: ["country", "minRating"], sort: "best_match" },
  "vendors get": { flags: [] },
  categories: { flags: [] },
  "research-areas": { flags: [] },
  prices: { flags: ["peptide", "currency"] },
  products: { flags: ["peptide"] },
};

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
  const name = def.path.join(" ");
  return ANSWERED[name] !== undefined || LIBRARY_COMMANDS.has(name);
}

function refused(what: string, why: string): UsageError {
  return new UsageError(`--offline: ${what}: ${why}`, {
    hints: ["Run it online (PEP_OFFLINE=0, or without --offline), or query the library with `pep sql`."],
  });
}

/**
 * Refuses (exit 2) an offline run the library cannot answer faithfully: the command, a
 * flag, `--fields`, or the sandbox. Commands that need no API (config, completion) pass.
 */
export function refuseOffline(
  def: CommandDef,
  opts: Record<string, unknown>,
  globals: { fields?: string | undefined; sandbox?: boolean | undefined },
  sandbox: boolean,
): void {
  const name = def.path.join(" ");
  if (def.offline || LIBRARY_COMMANDS.has(name)) return;
  if (sandbox)
    throw new UsageError("--offline and --sandbox cannot be used together: one reads the library, the other a server", {
      hints: ["Leave out one of them (PEP_SANDBOX and PEP_OFFLINE count as the flags)."],
    });
  const answered = ANSWERED[name];
  if (!answered) throw refused(`pep ${name}`, "the library cannot answer this command; it needs the API");
  if (globals.fields !== undefined)
    throw refused("--fields", "the order in which the API sends the chosen fields is not known to the library");
  for (const o of optionsOf(def)) {
    const value = opts[o.key];
    if (value === undefined || value === false || COMMON.includes(o.key) || answered.flags.includes(o.key)) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (o.key === "sort" && answered.sort !== undefined) {
      if (value === answered.sort) continue;
      throw refused(`--sort ${String(value)}`, `the library keeps the API's default order (${answered.sort}) only`);
    }
    throw refused(`--${o.long}`, WHY[o.key] ?? "the library cannot answer it exactly");
  }
}
