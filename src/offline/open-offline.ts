/**
 * Opens the run's library for `--offline` and returns the client that answers from it.
 * Loaded only by an offline run: nothing of the library reaches any other command's
 * start-up (docs/startup.md).
 */
import { LibraryError } from "../core/errors.js";
import type { Client } from "../http/client-types.js";
import { createOfflineClient } from "./offline-client.js";
import type { LibraryResource, SyncInfo, WalkInfo } from "./reader.js";
import { type SqlSource, sqlReader } from "./sql-reader.js";
import { openLibraryForReading } from "./library-target.js";
import type { FactsSource } from "../library/library-facts.js";

export interface OfflineOpening {
  env: Record<string, string | undefined>;
  cwd: string;
  profile: string;
  /** `--db`, `PEP_DB` or the profile's `db`, when one is given. */
  db: string | undefined;
  /** Bound on a PostgreSQL connection and its statements (`--timeout`). */
  timeoutMs?: number | undefined;
  /** Told once the library is open: where it is and its last sync. */
  onSync(sync: SyncInfo, where: string): void;
  /** Told once per resource that answers: the walk its answer comes from. */
  onWalk?: (resource: LibraryResource, walk: WalkInfo | undefined) => void;
  /** Told the library's connection once open (a manifest reads its facts through it). */
  onOpen?: (source: FactsSource) => void;
  /** Told each name turned into an item's id. */
  onResolve?: (resource: LibraryResource, given: string, id: string) => void;
  /** `--max-age` as given, and the time it counts back from. */
  maxAge?: string | undefined;
  /** `--as-of` as given: the answers as the library knew them at that sync (as-of-reader.ts). */
  asOf?: string | undefined;
  now: number;
}

/** What an offline run answered from: the library, its last sync, and per resource the walk read. */
export interface LibraryProvenance {
  sync: SyncInfo;
  where: string;
  walks: Partial<Record<LibraryResource, WalkInfo | undefined>>;
  /** `--as-of` as given, when the answers were read as of a sync. */
  asOf?: string | undefined;
  /** The library's connection, for a manifest's facts (library/library-facts.ts). */
  source?: FactsSource | undefined;
  /** Each name given that the library turned into an item's id, in the order asked. */
  resolved: Array<{ resource: LibraryResource; given: string; id: string }>;
}

/**
 * The notice of an offline run: when the walk that answers it ended (of `resource`, when
 * named: a second resource answering from another walk).
 */
export function syncNotice(finishedAt: string, resource?: string): string {
  return `from the local library, ${resource === undefined ? "" : `${resource} `}synced ${finishedAt}`;
}

/**
 * The run's side of an offline client: the provenance it records (in `record`), and the
 * notice naming the walk that answered, the first resource's as "synced <time>" and any
 * other resource that answered from another walk by name.
 */
export function tellingWalks(
  record: { library: LibraryProvenance | undefined; apiVersion: string | undefined },
  notice: (line: string) => void,
  debug: (line: string) => void,
  asOf?: string,
): Pick<OfflineOpening, "onSync" | "onWalk" | "onOpen" | "onResolve"> {
  let told: LibraryProvenance | undefined;
  let source: FactsSource | undefined;
  const resolved: LibraryProvenance["resolved"] = [];
  return {
    onOpen: (s) => {
      source = s;
    },
    onResolve: (resource, given, id) => {
      if (!resolved.some((r) => r.resource === resource && r.given === given)) resolved.push({ resource, given, id });
    },
    onSync: (sync, where) => {
      told = { sync, where, walks: {}, source, resolved, ...(asOf === undefined ? {} : { asOf }) };
      record.library = told;
      record.apiVersion = sync.apiVersion;
      debug(`library: ${where}, ${asOf === undefined ? "" : `as of ${asOf}: `}sync ${sync.id}`);
    },
    onWalk: (resource, walk) => {
      if (!told) return;
      const library = told;
      const at = (w: WalkInfo | undefined) => w?.finishedAt ?? library.sync.finishedAt;
      const earlier = Object.values(library.walks);
      library.walks[resource] = walk;
      if (earlier.length === 0) notice(syncNotice(at(walk)));
      else if (!earlier.some((w) => at(w) === at(walk))) notice(syncNotice(at(walk), resource));
    },
  };
}

export async function openOfflineClient(o: OfflineOpening): Promise<Client> {
  const maxAge =
    o.maxAge === undefined
      ? undefined
      : { ms: (await import("../library/freshness.js")).parseDuration(o.maxAge, "--max-age"), now: o.now };
  const source: SqlSource = await openLibraryForReading(o);
  o.onOpen?.(source);
  const plain = sqlReader(source);
  const reader = o.asOf === undefined ? plain : (await import("./as-of-reader.js")).asOfReader(plain, source, o.asOf);
  // Under --as-of this also settles the sync it names (refused: exit 2, the library closed).
  const last = await reader.lastSync().catch(async (e: unknown) => {
    await reader.close();
    throw e;
  });
  if (!last) {
    await reader.close();
    throw new LibraryError("library_missing", `--offline: the library ${source.location} holds no finished sync`, {
      hints: ["Run `pep sync` while online to fill it, then try again."],
    });
  }
  return createOfflineClient(reader, {
    onSync: o.onSync,
    ...(o.onWalk ? { onWalk: o.onWalk } : {}),
    ...(o.onResolve ? { onResolve: o.onResolve } : {}),
    ...(maxAge ? { maxAge } : {}),
  });
}
