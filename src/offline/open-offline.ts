/**
 * Opens the run's library for `--offline` and returns the client that answers from it.
 * Loaded only by an offline run: nothing of the library reaches any other command's
 * start-up (docs/startup.md).
 */
import { LibraryError } from "../core/errors.js";
import type { Client } from "../http/client-types.js";
import { createOfflineClient } from "./offline-client.js";
import type { SyncInfo } from "./reader.js";
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
}

/** The notice of an offline run: which sync answers it. */
export function syncNotice(sync: SyncInfo): string {
  return `from the local library, synced ${sync.finishedAt}`;
}

export async function openOfflineClient(o: OfflineOpening): Promise<Client> {
  const source: SqlSource = await openLibraryForReading(o);
  const reader = sqlReader(source);
  if (!(await reader.lastSync())) {
    await reader.close();
    throw new LibraryError("library_missing", `--offline: the library ${source.location} holds no finished sync`, {
      hints: ["Run `pep sync` while online to fill it, then try again."],
    });
  }
  return createOfflineClient(reader, { onSync: o.onSync });
}
