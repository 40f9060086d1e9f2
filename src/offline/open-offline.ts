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
): Pick<OfflineOpening, "onSync" | "onWalk"> {
  let told: LibraryProvenance | undefined;
  return {
    onSync: (sync, where) => {
      told = { sync, where, walks: {}, ...(asOf === undefined ? {} : { asOf }) };
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
    ...(maxAge ? { maxAge } : {}),
  });
}
