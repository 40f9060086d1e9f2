/** `pep peptides list`: GET /peptides with its filters and `--fields`. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { listQuery, pagingFrom, runList } from "../shared/list.js";
import type { ListRun } from "../../core/command.js";
import type { Context } from "../../core/command-context.js";
import { UsageError } from "../../core/errors.js";
import { cleanLine } from "../../core/sanitize.js";
import type { PEPTIDE_LIST_OPTIONS } from "../../api/params/peptide-options.js";

/**
 * `--research-area` as the API takes it, from all or part of an area's name or id, as
 * `pep mcp` reads it (`sleep` is "Sleep quality"): an exact or only match is used (and
 * said, when it differs from what was typed); none or several is an error naming them,
 * never a list left silently empty.
 */
async function researchArea(ctx: Context, given: string): Promise<string> {
  const { researchAreasNamed } = await import("../../api/nearest-names.js");
  const client = await ctx.client(ENDPOINTS.researchAreas);
  const { match, names } = await researchAreasNamed(client, given, ctx.io.signal);
  if (match !== undefined) {
    if (match !== given) ctx.notice(`research area "${cleanLine(given)}": ${cleanLine(match)}`);
    return match;
  }
  const list = "`pep research-areas` lists them (`--search` takes part of a name)";
  if (names.length === 0)
    throw new UsageError(`--research-area "${cleanLine(given)}" matches no research area`, { hints: [list] });
  const shown = names.slice(0, 10).map((n) => `"${cleanLine(n)}"`);
  throw new UsageError(
    `--research-area "${cleanLine(given)}" matches ${names.length} research areas: ${shown.join(", ")}${names.length > 10 ? ", …" : ""}`,
    { hints: [`Give one of them whole: \`--research-area "${cleanLine(names[0]!)}"\``] },
  );
}

export const run: ListRun<typeof PEPTIDE_LIST_OPTIONS> = async ({ opts }, ctx) => {
  const endpoint = ENDPOINTS.peptides;
  if (typeof opts.researchArea === "string") {
    // Every flag judged first: a bad value is refused before any request.
    listQuery(ctx, endpoint, opts, endpoint.options, pagingFrom(opts, endpoint), endpoint.fields !== undefined);
    return runList(ctx, { ...opts, researchArea: await researchArea(ctx, opts.researchArea) }, { endpoint });
  }
  return runList(ctx, opts, { endpoint });
};
