/**
 * The offline reader under `--as-of` (docs/offline.md): the same answers as the plain
 * reader, read as the library knew them at one complete sync (library/as-of.ts). A list
 * is the ids of the walk that answered, in its order, each with its text as sent then; an
 * item's place is its place in that walk. A detail answer is kept only as last fetched:
 * one fetched at or before that sync answers, a later one is refused rather than passed
 * off as then.
 */
import { parseJsonExact } from "../core/exact-number.js";
import { LibraryError } from "../core/errors.js";
import {
  type AsOfSource,
  type AsOfSync,
  type ResourceAsOf,
  resolveAsOf,
  rangeAsOf,
  resourceAsOf,
} from "../library/as-of.js";
import type { LibraryReader, LibraryResource, StoredItem, StudyIdField } from "./reader.js";

/** Items read per query while a filter skips some. */
const CHUNK = 500;

/** A study's identifier as its JSON field holds it. */
const STUDY_KEY: Record<StudyIdField, string> = { pmid: "pmid", doi: "doi", nct_id: "nct_id" };

type Slice = (resource: LibraryResource, from: number, n: number) => Promise<StoredItem[]>;

/** The studies a peptide cites from place `from` on, as each study's own `cited_by` said then. */
async function citedFrom(slice: Slice, count: number, from: number, limit: number, citedBy: string) {
  const out: StoredItem[] = [];
  for (let at = from; out.length < limit && at < count; at += CHUNK) {
    for (const it of await slice("studies", at, CHUNK)) {
      const cited = (parseJsonExact(it.text) as { cited_by?: unknown }).cited_by;
      if (Array.isArray(cited) && cited.map(String).includes(citedBy)) out.push(it);
      if (out.length === limit) break;
    }
  }
  return out;
}

/** The one study whose identifier was `value` then: exactly, else ignoring case. */
async function studyFrom(slice: Slice, count: number, field: StudyIdField, value: string) {
  const key = STUDY_KEY[field];
  const found: StoredItem[] = [];
  const loose: StoredItem[] = [];
  for (let from = 0; from < count; from += CHUNK) {
    for (const it of await slice("studies", from, CHUNK)) {
      const v = (parseJsonExact(it.text) as Record<string, unknown>)[key];
      if (typeof v !== "string") continue;
      if (v === value) found.push(it);
      else if (v.toLowerCase() === value.toLowerCase()) loose.push(it);
    }
  }
  if (found.length > 0) return found.length === 1 ? found[0] : undefined;
  return loose.length === 1 ? loose[0] : undefined;
}

export function asOfReader(base: LibraryReader, db: AsOfSource, given: string): LibraryReader {
  let syncP: Promise<AsOfSync> | undefined;
  const sync = () => (syncP ??= resolveAsOf(db, given));
  const states = new Map<LibraryResource, Promise<ResourceAsOf>>();
  const state = (resource: LibraryResource) => {
    let p = states.get(resource);
    if (!p) {
      p = sync().then((s) => resourceAsOf(db, resource, s));
      states.set(resource, p);
    }
    return p;
  };
  /** The last range read of each resource: a list's next pages come from it. */
  const read = new Map<LibraryResource, { from: number; texts: string[] }>();
  /**
   * The items at places `from`… of the resource's walk, at most `n` ids read. A range is
   * read CHUNK items at a time at least, so the pages of a whole list cost a fifth of
   * the queries (each a round trip and its own rows to parse).
   */
  const slice: Slice = async (resource, from, n) => {
    const [s, st] = await Promise.all([sync(), state(resource)]);
    const want = Math.max(0, Math.min(n, st.ids.length - from));
    let r = read.get(resource);
    if (!r || from < r.from || from + want > r.from + r.texts.length) {
      r = { from, texts: await rangeAsOf(db, resource, st, s.id, from, Math.max(n, CHUNK), want) };
      read.set(resource, r);
    }
    return r.texts.slice(from - r.from, from - r.from + n).map((text, i) => ({ ord: from + i, text }));
  };
  /** The one item of the walk whose id (or, `loose`, the id ignoring case) is `id`. */
  const byId = async (resource: LibraryResource, id: string): Promise<StoredItem | undefined> => {
    const st = await state(resource);
    let at = st.place().get(id);
    if (at === undefined) {
      const lower = id.toLowerCase();
      const loose = st.ids.flatMap((x, i) => (x.toLowerCase() === lower ? [i] : []));
      if (loose.length !== 1) return undefined;
      at = loose[0]!;
    }
    return (await slice(resource, at, 1))[0];
  };
  return {
    where: base.where,
    async lastSync() {
      const s = await sync();
      return { id: String(s.id), finishedAt: s.finishedAt, baseUrl: s.baseUrl, apiVersion: s.apiVersion };
    },
    async walk(resource) {
      const st = await state(resource);
      return { syncId: st.walkSyncId, finishedAt: st.walkFinishedAt, items: st.ids.length };
    },
    listMeta: (resource) => base.listMeta(resource),
    async items(resource, { after, limit, citedBy }) {
      const from = after < 0 ? 0 : Math.floor(after) + 1;
      if (citedBy === undefined) return slice(resource, from, limit);
      return citedFrom(slice, (await state(resource)).ids.length, from, limit, citedBy);
    },
    item: byId,
    study: async (field, value) => studyFrom(slice, (await state("studies")).ids.length, field, value),
    async detail(resource, kind, id) {
      const s = await sync();
      const rows = await db.all<{ sync_id: unknown }>(
        "SELECT sync_id FROM details WHERE resource = ? AND id = ? AND kind = ?",
        [resource, id, kind],
      );
      const fetched = rows[0] ? Number(rows[0].sync_id) : undefined;
      if (fetched !== undefined && fetched > s.id)
        throw new LibraryError(
          "library_not_kept",
          `--as-of: the ${kind} of ${resource} ${id} is kept only as fetched by sync ${fetched}, after sync ${s.id}`,
          { hints: ["detail answers are kept as last fetched; a list answers as of any kept sync"] },
        );
      return base.detail(resource, kind, id);
    },
    close: () => base.close(),
  };
}
