/**
 * The query of `pep prices` and `pep products`: the flags the spec shows, upper-cased
 * codes, and `--param key=value` for the parameters it does not show (spec 4.6 says
 * they exist). Flags and pairs are checked before any request.
 */
import type { Endpoint } from "../../api/endpoints.js";
import type { Query } from "../../http/types.js";
import { checkParams } from "../common.js";
import { upperCode } from "../vendors/params.js";
import { extraParams } from "./params.js";

/** Parameters a flag covers, and the flag to use instead of `--param`. */
const FLAG_OF: Record<string, string> = {
  peptide: "--peptide",
  form: "--form",
  currency: "--currency",
  ships_to: "--ships-to",
  limit: "--limit (or --page-size)",
  cursor: "--cursor",
};

export function offerQuery(endpoint: Endpoint, opts: Record<string, unknown>, withShipsTo: boolean): Query {
  const reserved = { ...FLAG_OF };
  if (!withShipsTo) delete reserved.ships_to;
  const extra = extraParams(opts.param, reserved);
  const known: Record<string, unknown> = {
    peptide: opts.peptide,
    form: opts.form,
    currency: upperCode(opts.currency),
  };
  if (withShipsTo) known.ships_to = upperCode(opts.shipsTo);
  return checkParams(endpoint, { ...known, ...extra });
}

/** `--fields a,b` as columns (these endpoints take no `fields` parameter the spec shows). */
export function columns(fields: string | undefined): string[] | undefined {
  const list = fields?.split(",").map((f) => f.trim()).filter(Boolean);
  return list && list.length > 0 ? list : undefined;
}
