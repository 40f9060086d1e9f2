/**
 * The options that open a record's page (`pep browse`, `--web` on get commands), kept
 * apart from `web.ts` so that the command definitions, which every run loads, load none
 * of the code.
 */
import { option, options } from "../../api/options.js";
import type { PageKind } from "../../api/record-links.js";
import type { CommandInput, Result } from "../../core/command.js";
import type { Context } from "../../core/command-context.js";
import { UsageError } from "../../core/errors.js";
import type { Query } from "../../http/client-types.js";

export const NO_BROWSER = option({
  key: "browser",
  long: "no-browser",
  description: "print the page's address instead of opening it (as happens anyway when stdout is not a terminal)",
});

/** `--web` and `--no-browser` of `peptides get`, `studies get` and `vendors get`. */
export const WEB_OPTIONS = options([
  {
    key: "web",
    long: "web",
    description: "open the record's page in the browser instead of printing the record (one id)",
  },
  NO_BROWSER,
]);

/** A get command prints a page's address, not the record, with `--web` (CommandDef.printsText). */
export const printsPage = (opts: Record<string, unknown>): boolean => opts.web === true;

/** Where each kind's page leads, for help. */
export const PAGE_HELP =
  "The page: a peptide's profile page (url); a study's PubMed page (pmid), else doi.org (doi), else ClinicalTrials.gov (nct_id), else its source_url or url; a vendor's page in the directory (profile_url, else url). Opened with PEP_BROWSER or BROWSER (a command; %s stands for the address, else it is added last), else the platform's opener (xdg-open, open, rundll32). The address is printed instead, on stdout, with --no-browser, when stdout is not a terminal, or when there is nothing to open it with. A record with no http(s) page exits 4.";

/** Whether a get command was asked for the page (`--web`); `--no-browser` alone is a usage error. */
export function webAsked(opts: { web?: boolean | undefined; browser?: boolean | undefined }): boolean {
  if (opts.browser === false && !opts.web) throw new UsageError("--no-browser goes with --web (or use pep browse)");
  return opts.web === true;
}

/**
 * `--web` on a get command: its one id's page (shared/web.ts, loaded only then), or
 * undefined when the record itself was asked for.
 */
export async function pageIfAsked(
  ctx: Context,
  kind: PageKind,
  input: CommandInput<{ web?: boolean | undefined; browser?: boolean | undefined }>,
  query?: Query,
): Promise<Result | undefined> {
  if (!webAsked(input.opts)) return undefined;
  const { oneIdForWeb, openRecordPage } = await import("./web.js");
  return openRecordPage(ctx, kind, oneIdForWeb(input.args), { browser: input.opts.browser, ...(query && { query }) });
}
