/**
 * Whether a walk cut short may go on from its checkpoint, by the rule a cut-short `--file`
 * export follows (core/resume-rules.ts, docs/cli.md#resuming-an-export): its pages are
 * younger than the resume age (PEP_RESUME_MAX_AGE, default 24h), and its first and last
 * kept pages, asked again with the cursor that fetched each (with the ETag kept, so an
 * unchanged page is a 304), hold the same ids in the same order and the same items. A
 * refused cursor (400, 404, 410, 422) is a difference too. Any difference: the resource's
 * walk starts over from the first page, so what the merge then calls removed comes from
 * a walk that saw the whole list as one.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { LIMITS } from "../../api/enums.js";
import { ApiError } from "../../core/errors.js";
import { stringifyExact } from "../../core/exact-number.js";
import { CURSOR_REFUSALS, envResumeMaxAge, pageMoved, tooOld } from "../../core/resume-rules.js";
import type { Client } from "../../http/client-types.js";
import type { Db } from "../db.js";
import { dataItemTexts, itemKey, type Rebase, rebased } from "../items.js";
import type { LibraryTable } from "../schema.js";
import type { SyncCounters } from "./counters.js";
import { pagesInOrder, type StagedPage } from "./staged-pages.js";

export interface ResumeCheck {
  db: Db;
  client: Client;
  lib: LibraryTable;
  query: string;
  signal: AbortSignal;
  counters: SyncCounters;
  now: () => string;
  env: Record<string, string | undefined>;
  rebase?: Rebase | undefined;
}

/** The checkpoint a walk would go on from. */
export interface KeptWalk {
  started_at: string;
  cursor: string | null;
  pages: number;
}

const digestOf = (texts: readonly string[]): string => bytesToHex(sha256(utf8ToBytes(texts.join("\n"))));

/** The kept text of each id: the staged item with a body, else the resource table's (a page that answered 304). */
async function keptTexts(o: ResumeCheck, ids: readonly string[]): Promise<Map<string, string>> {
  const sqlite = o.db.dialect === "sqlite";
  const each = sqlite ? "SELECT value FROM json_each(?)" : "SELECT jsonb_array_elements_text(?::jsonb)";
  const list = JSON.stringify(ids);
  const out = new Map<string, string>();
  const table = await o.db.all<{ id: string; t: string }>(
    `SELECT id, ${sqlite ? "item" : "item_text"} AS t FROM "${o.lib.table}" WHERE id IN (${each})`,
    [list],
  );
  for (const r of table) out.set(r.id, rebased(r.t, o.rebase));
  const staged = await o.db.all<{ id: string; t: string }>(
    `SELECT id, item AS t FROM "_pep_staged_${o.lib.table}" WHERE id IN (${each}) AND ${sqlite ? "item <> ''" : "item IS NOT NULL"}`,
    [list],
  );
  for (const r of staged) out.set(r.id, r.t);
  return out;
}

/** Asks `page` again; why it no longer lines up, or undefined. */
async function samePage(o: ResumeCheck, page: StagedPage, which: string, next: string | null) {
  const res = await o.client.request(o.lib.endpoint.path, {
    query: { limit: LIMITS.pageMax, cursor: page.cursor === "" ? undefined : page.cursor },
    signal: o.signal,
    noCache: true,
    ifNoneMatch: page.etag ?? undefined,
  });
  o.counters.requests += 1;
  if (res.status === 304 && page.etag !== null) {
    o.counters.notModified += 1;
    return undefined;
  }
  const items = Array.isArray(res.data) ? res.data : [];
  const sent = dataItemTexts(res.text);
  const texts = items.map((item, i) => (sent?.length === items.length ? sent[i]! : (stringifyExact(item) ?? "null")));
  const ids = items.map((item, i) => itemKey(item, texts[i]!));
  const keptIds = JSON.parse(page.item_ids) as string[];
  const kept = await keptTexts(o, keptIds);
  const why = pageMoved(
    which,
    { ids: keptIds, digest: digestOf(keptIds.map((id) => kept.get(id) ?? "")) },
    { ids, digest: digestOf(texts) },
  );
  if (why !== undefined || which !== "last") return why;
  const now = res.pagination?.has_more ? (res.pagination.next_cursor ?? null) : null;
  return now === next ? undefined : "the last kept page now leads to another page";
}

/**
 * Why the kept walk cannot go on (to be said in one line), or undefined when it lines up.
 * Failures other than a refused cursor are the sync's own (the checkpoint stays).
 */
export async function resumeRefusal(o: ResumeCheck, kept: KeptWalk): Promise<string | undefined> {
  const old = tooOld(kept.started_at, Date.parse(o.now()), envResumeMaxAge(o.env));
  if (old !== undefined) return `its pages were ${old}`;
  const pages = await pagesInOrder(o.db, o.lib, o.query, o.db);
  if (pages.length === 0) return undefined;
  const last = pages[pages.length - 1]!;
  if (pages.length !== kept.pages || (last.next_cursor ?? null) !== kept.cursor)
    return "its kept pages do not lead to its checkpoint";
  const checks: Array<[string, StagedPage]> = [["last", last]];
  if (pages.length > 1) checks.push(["first", pages[0]!]);
  for (const [which, page] of checks) {
    try {
      const why = await samePage(o, page, which, kept.cursor);
      if (why !== undefined) return why;
    } catch (err) {
      if (err instanceof ApiError && CURSOR_REFUSALS.has(err.status))
        return `the API refused the cursor of the ${which} kept page (HTTP ${err.status})`;
      throw err;
    }
  }
  return undefined;
}

/**
 * Whether the list moved while the walk read it: its first page, asked again once the
 * walk is done (a 304 when unchanged), holds other ids than the walk kept for it. Offset
 * cursors shift then, so a walk that went on would have missed or repeated items, and
 * what the merge calls removed would be wrong. A changed item alone is no move: it is
 * read again at the next sync.
 */
export async function movedWhileWalked(o: ResumeCheck): Promise<string | undefined> {
  const pages = await pagesInOrder(o.db, o.lib, o.query, o.db);
  const first = pages[0];
  if (pages.length < 2 || first === undefined) return undefined;
  const res = await o.client.request(o.lib.endpoint.path, {
    query: { limit: LIMITS.pageMax },
    signal: o.signal,
    noCache: true,
    ifNoneMatch: first.etag ?? undefined,
  });
  o.counters.requests += 1;
  if (res.status === 304 && first.etag !== null) {
    o.counters.notModified += 1;
    return undefined;
  }
  const items = Array.isArray(res.data) ? res.data : [];
  const sent = dataItemTexts(res.text);
  const ids = items.map((item, i) =>
    itemKey(item, sent?.length === items.length ? sent[i]! : (stringifyExact(item) ?? "null")),
  );
  const kept = JSON.parse(first.item_ids) as string[];
  const same = ids.length === kept.length && ids.every((id, i) => id === kept[i]);
  return same ? undefined : "the first page holds other items than when the walk read it";
}

/** Whether `err` is the API refusing a cursor (the stored one, when the walk went on from it). */
export const refusedCursor = (err: unknown): boolean => err instanceof ApiError && CURSOR_REFUSALS.has(err.status);
