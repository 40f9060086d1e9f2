/**
 * `pep browse [peptide|study|vendor] <id>`: the kind named, or told by the id's form
 * (a vendor id `vnd_…`, a study id in any form `studies get` takes, else a peptide), then
 * the record's page opened or printed (shared/web.ts).
 */
import { ApiError, EXIT, UsageError } from "../../core/errors.js";
import type { PageKind } from "../../api/record-links.js";
import { parseStudyId } from "../../api/study-id.js";
import type { Run } from "../../core/command.js";
import type { NO_BROWSER } from "../shared/web-options.js";
import { openRecordPage } from "../shared/web.js";
import { BROWSE_KINDS } from "./defs.js";
import { closest } from "../../core/suggest.js";
import { cleanLine } from "../../core/sanitize.js";

export const run: Run<readonly [typeof NO_BROWSER]> = async (input, ctx) => {
  const { kind, id, guessed } = target(input.args);
  // An offer (the first column of `pep prices`) has no page of its own: the API serves
  // offers only as a list. Said before any request, with where its pages are.
  if (guessed && /^off_/i.test(id.trim()))
    throw new UsageError(`"${cleanLine(id)}" is an offer: the API has no page for one offer`, {
      hints: [
        `its product page: \`pep prices --fields id,product_page_url\` (with the filters that listed it); its vendor's: \`pep browse <VENDOR ID>\``,
      ],
    });
  try {
    return await openRecordPage(ctx, kind, id, { browser: input.opts.browser });
  } catch (err) {
    // A vendor's slug reads as a peptide's: a 404 for a guessed peptide says how to ask for a vendor.
    if (guessed && kind === "peptide" && err instanceof ApiError && err.exitCode === EXIT.notFound)
      err.hints.push(`"${cleanLine(id)}" was looked up as a peptide; for a vendor's slug: pep browse vendor ${id}`);
    throw err;
  }
};

/** The kind words, as the command groups spell them too (`pep browse studies 12345678`). */
const KIND_WORDS: Readonly<Record<string, PageKind>> = {
  peptide: "peptide",
  peptides: "peptide",
  study: "study",
  studies: "study",
  vendor: "vendor",
  vendors: "vendor",
};

/** The kind and id of the arguments: `<id>`, or `<kind> <id>`. */
export function target(args: readonly string[]): { kind: PageKind; id: string; guessed: boolean } {
  const [first = "", second] = args;
  if (second === undefined) return { kind: kindOf(first), id: first, guessed: true };
  const kind = KIND_WORDS[first.trim().toLowerCase()];
  if (kind) return { kind, id: second, guessed: false };
  const best = closest(first, BROWSE_KINDS);
  throw new UsageError(`pep browse takes <id>, or a kind and an id: ${BROWSE_KINDS.join(", ")} (got "${first}")`, {
    hints: best ? [`Did you mean \`${best}\`? (\`pep browse ${best} ${second}\`)`] : [],
  });
}

/** What an id alone names: `vnd_…` a vendor, a study id in any accepted form a study, else a peptide. */
export function kindOf(id: string): PageKind {
  if (/^vnd_/i.test(id.trim())) return "vendor";
  if (parseStudyId(id) !== undefined) return "study";
  return "peptide";
}
