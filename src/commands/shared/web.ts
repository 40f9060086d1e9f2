/**
 * Opening a record's page (`pep browse`, `--web`): the record is fetched as `get` fetches
 * it (same key, cache and errors, exit 4 for an unknown id), its page chosen by
 * `api/record-links.ts`, then opened, or its address printed on stdout when `--no-browser` says
 * so, when stdout is not a terminal (`pep browse X | xargs …` gets the address), or when
 * there is no browser to open it with.
 */
import { ENDPOINTS, type Endpoint } from "../../api/endpoints.js";
import { explained } from "../../api/auth-hints.js";
import { itemOf } from "../../api/item.js";
import { requireArg } from "../../api/path-args.js";
import { isSyntheticMeta, type PageKind, PAGE_FIELDS, pageOf } from "../../api/record-links.js";
import { toStudyId } from "../../api/study-id.js";
import type { Resource, Result } from "../../core/command.js";
import type { Context } from "../../core/command-context.js";
import { NoPageError, UsageError } from "../../core/errors.js";
import { cleanLine } from "../../core/sanitize.js";
import type { Query } from "../../http/client-types.js";

interface Lookup {
  endpoint: Endpoint;
  resource: Resource;
  param: string;
  check: (id: string) => string;
}

const LOOKUP: Readonly<Record<PageKind, Lookup>> = {
  peptide: {
    endpoint: ENDPOINTS.peptide,
    resource: "peptide-profile",
    param: "slug",
    check: (id) => requireArg(id, "slug"),
  },
  study: { endpoint: ENDPOINTS.study, resource: "study-detail", param: "id", check: (id) => toStudyId(id) },
  vendor: { endpoint: ENDPOINTS.vendor, resource: "vendor-detail", param: "id", check: (id) => requireArg(id, "id") },
};

/** The id a page is asked for, checked as its `get` command checks it (exit 2, nothing sent). */
export function checkedId(kind: PageKind, id: string): string {
  return LOOKUP[kind].check(id);
}

/** `--web` on a get command: one id, not a batch. */
export function oneIdForWeb(args: readonly string[]): string {
  if (args.length !== 1 || args[0] === "-")
    throw new UsageError(`--web opens one record's page: give one id (got ${args.join(" ") || "none"})`, {
      hints: ["Several pages: `pep browse <id>` for each, or --no-browser to print their addresses one at a time."],
    });
  return args[0]!;
}

/** Fetches the record of `id` and opens its page, or prints its address (see the top of this file). */
export async function openRecordPage(
  ctx: Context,
  kind: PageKind,
  id: string,
  opts: { browser?: boolean | undefined; query?: Query },
): Promise<Result> {
  const { endpoint, resource, param } = LOOKUP[kind];
  const checked = checkedId(kind, id);
  const fetch = () => itemOf(ctx, endpoint, resource, { query: opts.query ?? {}, pathParams: { [param]: checked } });
  const item = endpoint.keyRequired ? await explained(ctx, endpoint, fetch) : await fetch();
  // Sandbox data: the record's own page, never a real registry's for a made-up identifier.
  const synthetic = isSyntheticMeta(item.meta);
  const { page, refused } = pageOf(kind, item.data, { synthetic });
  if (!page) {
    const passed = refused.map((r) => `${r.field} "${cleanLine(r.url.slice(0, 80))}"`).join(", ");
    throw new NoPageError(
      refused.length > 0
        ? `${kind} ${cleanLine(checked)} has no page pep will open: ${passed} is not an http(s) address`
        : `${kind} ${cleanLine(checked)} has no page: its record holds none of ${PAGE_FIELDS[kind].join(", ")}`,
    );
  }
  const text: Result = { kind: "text", text: `${page.url}\n` };
  if (opts.browser === false || !ctx.io.stdoutIsTTY) return text;
  const opening = await ctx.openPage(page.url);
  if (!opening.opened) {
    ctx.notice(`cannot open a browser: ${opening.reason}. The address is printed instead.`);
    return text;
  }
  ctx.notice(`Opening ${page.url} in your browser.`);
  return { kind: "none" };
}
