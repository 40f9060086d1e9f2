/**
 * Every option of a command, as help, man pages, completion and commander see them: its
 * own, and the paging options of a list, whose `--limit` default is the endpoint's
 * (`defaultLimit` of the descriptor the command `calls`), the same one the list runner
 * uses when no `--limit` is given.
 */
import type { CommandDef } from "../core/command.js";
import { ENDPOINTS } from "./endpoints.js";
import { LIST_OPTIONS, type OptionDef } from "./options.js";

/** The paging options with `--limit`'s default for help. */
export function listOptions(defaultLimit: number | undefined): OptionDef[] {
  return LIST_OPTIONS.map((o) =>
    o.key === "limit" && defaultLimit !== undefined ? { ...o, default: defaultLimit } : o,
  );
}

/** Every option of a command: its own (a `limit` one showing the endpoint's default), and the paging options of a list. */
export function optionsOf(def: Pick<CommandDef, "options" | "list" | "calls">): OptionDef[] {
  const defaultLimit = def.calls === undefined ? undefined : ENDPOINTS[def.calls].defaultLimit;
  const own = (def.options ?? []).map((o) =>
    o.param === "limit" && defaultLimit !== undefined ? { ...o, default: defaultLimit } : o,
  );
  return [...own, ...(def.list ? listOptions(defaultLimit) : [])];
}
