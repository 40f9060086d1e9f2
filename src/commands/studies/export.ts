/**
 * `pep studies export`: every page of GET /studies for spreadsheets and reference
 * managers. Same filters as `studies list`, but it takes every page unless `--limit` is
 * given (the format default, csv, is the definition's `defaultFormat`).
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { runList } from "../shared/list.js";
import type { Run } from "../../core/command.js";
import type { EXPORT_OPTIONS } from "../../api/params/study-options.js";

/** `--all` unless the user chose `--limit` (or `--all` already). */
export function exportPaging(opts: Record<string, unknown>): Record<string, unknown> {
  return opts.limit === undefined && opts.all === undefined ? { ...opts, all: true } : opts;
}

export const run: Run<typeof EXPORT_OPTIONS> = ({ opts }, ctx) =>
  runList(ctx, exportPaging(opts), { endpoint: ENDPOINTS.studies });
