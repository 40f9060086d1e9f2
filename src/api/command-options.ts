/**
 * Every option of a command, as help, man pages, completion and commander see them: its
 * own, and the paging options of a list, whose `--limit` default is the endpoint's
 * (`defaultLimit` of the descriptor the command `calls`), the same one the list runner
 * uses when no `--limit` is given.
 */
import type { CommandDef } from "../core/command.js";
import { ENDPOINTS } from "./endpoints.js";
import { LIST_OPTIONS, type OptionDef, pageSizeDescription } from "./options.js";

type Limits = { defaultLimit: number; maxLimit: number };

/** The paging options with the endpoint's `--limit` default and page bound. */
export function listOptions(limits: Limits | undefined): OptionDef[] {
  if (!limits) return [...LIST_OPTIONS];
  return LIST_OPTIONS.map((o) =>
    o.key === "limit"
      ? { ...o, default: limits.defaultLimit }
      : o.key === "pageSize"
        ? { ...o, description: pageSizeDescription(limits.maxLimit) }
        : o,
  );
}

/**
 * Every option of a command: its own (one that fills `limit` shows the endpoint's default
 * and bound), and the paging options of a list.
 */
export function optionsOf(def: Pick<CommandDef, "options" | "list" | "calls">): OptionDef[] {
  const limits = def.calls === undefined ? undefined : ENDPOINTS[def.calls];
  const own = (def.options ?? []).map((o) =>
    o.param === "limit" && limits
      ? { ...o, default: limits.defaultLimit, description: `${o.description}, 1 to ${limits.maxLimit}` }
      : o,
  );
  return [...own, ...(def.list ? listOptions(limits) : [])];
}
