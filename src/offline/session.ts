/**
 * What an offline client keeps for one run: the library's last sync (read once, told
 * once), the small resources read whole to resolve names, and the turning of a name
 * (a peptide's alias, a vendor's slug, a study id) into the stored item's id.
 */
import { parseJsonExact } from "../core/exact-number.js";
import { LibraryError } from "../core/errors.js";
import { staleError, staleness } from "../library/freshness.js";
import type { LibraryReader, LibraryResource, StoredItem, StudyIdField, SyncInfo, WalkInfo } from "./reader.js";
import type { Item } from "./routes.js";

/** Not in the library: exit 4, as the API's 404, with the sync that would fetch it. */
export class NotInLibraryError extends LibraryError {
  constructor(message: string, resource: LibraryResource) {
    super("not_in_library", message, {
      hints: [`Run \`pep sync ${resource}\` while online to fetch it into the library, then try again.`],
    });
  }
}

/** Items read per query while a filter skips some: a page rarely needs a second read. */
export const BATCH = 500;

export const parseItem = (stored: StoredItem): Item => parseJsonExact(stored.text) as Item;

export interface Session {
  readonly reader: LibraryReader;
  /** The last sync; a library no sync ever finished is refused. */
  sync(): Promise<SyncInfo>;
  /** The last sync once read, for the client's base URL. */
  synced(): SyncInfo | undefined;
  /**
   * The resource is about to answer: its last complete walk is read (once a run), told
   * to `onWalk`, and checked against `--max-age` (a stale one is refused, exit 6);
   * resolves to that walk (undefined: never walked whole).
   */
  use(resource: LibraryResource): Promise<WalkInfo | undefined>;
  /** The id of the item `given` names; none: not in the library (exit 4). */
  resolve(resource: LibraryResource, given: string): Promise<string>;
}

/**
 * A study by another of its id forms than the one it is listed by (`doi-10.1000--x` for
 * the study listed as `pmid-…`), as the API answers each form: the identifier it names.
 */
async function studyByForm(reader: LibraryReader, given: string): Promise<StoredItem | undefined> {
  const m = /^(pmid|doi|nct)-(.+)$/i.exec(given);
  if (!m) return undefined;
  const form = m[1]!.toLowerCase();
  const field: StudyIdField = form === "pmid" ? "pmid" : form === "doi" ? "doi" : "nct_id";
  return reader.study(field, form === "doi" ? m[2]!.split("--").join("/") : m[2]!);
}

/** Every stored item of a resource, in order (for the small ones: peptides, vendors). */
async function readAll(reader: LibraryReader, resource: LibraryResource): Promise<Item[]> {
  const out: Item[] = [];
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    const rows = await reader.items(resource, { after, limit: BATCH });
    for (const r of rows) out.push(parseItem(r));
    if (rows.length < BATCH) return out;
    after = rows[rows.length - 1]!.ord;
  }
}

/** A name without case, accents, spaces, hyphens or other punctuation: `Brevritarin 81` is `brevritarin81`. */
function compactName(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

/** The names an item answers to: a peptide's id, name, synonyms and aliases; a vendor's id and slug. */
function namesOf(resource: LibraryResource, it: Item): string[] {
  return resource === "peptides"
    ? [it.id, it.name, ...(Array.isArray(it.also_known_as) ? it.also_known_as : [])].map(String)
    : [it.id, it.slug].filter((v) => v !== undefined && v !== null).map(String);
}

export interface SessionOptions {
  /** Told once, at the first answer: which library and its last finished sync. */
  onSync?: (sync: SyncInfo, where: string) => void;
  /** Told once per resource that answers: the walk its answer comes from (none: never walked whole). */
  onWalk?: (resource: LibraryResource, walk: WalkInfo | undefined) => void;
  /** `--max-age`: a resource whose last complete walk is older than this (or none) is refused. */
  maxAge?: { ms: number; now: number };
  /** Told each name turned into an item's id (for a manifest: what `--peptide brevritarin` named). */
  onResolve?: (resource: LibraryResource, given: string, id: string) => void;
}

export function createSession(reader: LibraryReader, options: SessionOptions = {}): Session {
  const { onSync, onWalk, maxAge } = options;
  const used = new Map<LibraryResource, Promise<WalkInfo | undefined>>();
  let syncPromise: Promise<SyncInfo> | undefined;
  const use = (resource: LibraryResource): Promise<WalkInfo | undefined> => {
    let p = used.get(resource);
    if (!p) {
      p = reader.walk(resource).then((walk) => {
        if (maxAge) {
          const why = staleness(resource, walk?.finishedAt, maxAge.ms, maxAge.now);
          if (why) throw staleError(maxAge.ms, [{ resource, why }]);
        }
        onWalk?.(resource, walk);
        return walk;
      });
      used.set(resource, p);
    }
    return p;
  };
  let synced: SyncInfo | undefined;
  const whole = new Map<LibraryResource, Promise<Item[]>>();
  const session: Session = {
    reader,
    synced: () => synced,
    use,
    sync: () =>
      (syncPromise ??= reader.lastSync().then((s) => {
        if (!s)
          throw new LibraryError("library_missing", `--offline: the library ${reader.where} holds no finished sync`, {
            hints: ["Run `pep sync` while online to fill it."],
          });
        synced = s;
        onSync?.(s, reader.where);
        return s;
      })),
    /**
     * A study by its id (exactly, else ignoring case) or another of its id forms; a peptide or vendor by any of its
     * names as written, else the one item that matches ignoring case.
     */
    async resolve(resource, given) {
      await use(resource);
      if (resource === "studies") {
        const found = (await reader.item("studies", given)) ?? (await studyByForm(reader, given));
        if (!found) throw new NotInLibraryError(`study "${given}" is not in the library`, "studies");
        return String(parseItem(found).id);
      }
      // The usual case, an id as the API lists it: one indexed look-up, not every item read.
      const byId = await reader.item(resource, given);
      if (byId && parseItem(byId).id === given) return given;
      let all = whole.get(resource);
      if (!all) {
        all = readAll(reader, resource);
        whole.set(resource, all);
      }
      const items = await all;
      const exact = items.find((it) => namesOf(resource, it).includes(given));
      if (exact) return String(exact.id);
      const lower = given.toLowerCase();
      const loose = items.filter((it) => namesOf(resource, it).some((n) => n.toLowerCase() === lower));
      if (loose.length === 1) return String(loose[0]!.id);
      // The forms a name is typed in (`brevritarin 81`, `Brevritarin_81`): blind to case,
      // spaces, hyphens, underscores and accents, when that names one item.
      const compact = compactName(given);
      const forms = items.filter((it) => namesOf(resource, it).some((n) => compactName(n) === compact));
      if (forms.length === 1 && compact !== "") return String(forms[0]!.id);
      const noun = resource === "peptides" ? "peptide" : "vendor";
      throw new NotInLibraryError(
        forms.length > 1
          ? `"${given}" names several ${noun}s in the library (${forms.map((it) => it.id).join(", ")}); give one's id`
          : `no ${noun} in the library is named "${given}" (its ids, names and aliases compared without regard to case, spaces, hyphens or accents)`,
        resource,
      );
    },
  };
  return options.onResolve ? tellingNames(session, options.onResolve) : session;
}

/** The session, its resolved names told to `onResolve`. */
function tellingNames(session: Session, onResolve: NonNullable<SessionOptions["onResolve"]>): Session {
  const resolve = session.resolve;
  return {
    ...session,
    async resolve(resource, given) {
      const id = await resolve(resource, given);
      onResolve(resource, given, id);
      return id;
    },
  };
}
