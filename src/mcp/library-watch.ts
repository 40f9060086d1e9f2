/**
 * Subscriptions to the library's records (`resources/subscribe` on pep://peptides/{slug},
 * pep://studies/{id}, pep://vendors/{id}) and the watch that serves them. `pep sync` runs
 * in another process, so the server learns of a sync by looking at the library's sync
 * records: one small query on an interval (the largest finished sync's id), on one
 * connection of its own whose read snapshot is renewed before each look. A newer sync's
 * change log names the records it changed; each subscribed one is told to the sessions
 * that subscribed (`notifications/resources/updated`). The timer is unref'd: it never
 * keeps the process alive.
 */
import type { Library } from "../library/open.js";

/** The records that can be subscribed to, by the resource their change rows name. */
const SUBSCRIBABLE = /^pep:\/\/(peptides|studies|vendors)\/([^/?#]+)$/;

/** The change log's key of a subscribable URI (`peptides/bpc-157`), or undefined. */
export function recordKey(uri: string): string | undefined {
  const m = SUBSCRIBABLE.exec(uri);
  if (!m) return undefined;
  try {
    return `${m[1]}/${decodeURIComponent(m[2]!)}`;
  } catch {
    return undefined;
  }
}

/** How the watch waits between looks (tests hand in their own). */
export interface WatchTimers {
  every(ms: number, fn: () => void): () => void;
}

export const REAL_TIMERS: WatchTimers = {
  every(ms, fn) {
    const t = setInterval(fn, ms);
    t.unref();
    return () => clearInterval(t);
  },
};

/** Seconds between looks at the sync records when PEP_MCP_LIBRARY_POLL does not say. */
export const DEFAULT_POLL_S = 10;

/** PEP_MCP_LIBRARY_POLL (seconds, 0.05 to 3600) in milliseconds; anything else is the default. */
export function pollMsOf(env: Record<string, string | undefined>): number {
  const n = Number(env.PEP_MCP_LIBRARY_POLL?.trim() || Number.NaN);
  return Number.isFinite(n) && n >= 0.05 && n <= 3600 ? Math.round(n * 1000) : DEFAULT_POLL_S * 1000;
}

/** One subscriber: told the URI it subscribed to; false when its session is gone. */
type Notify = () => boolean;

export class LibraryWatch {
  /** Record key -> session -> how to tell it (with the URI as the session gave it). */
  private readonly subs = new Map<string, Map<string, Notify>>();
  private lib: Promise<Library> | undefined;
  private last: number | undefined;
  private stopTimer: (() => void) | undefined;
  private looking: Promise<void> | undefined;

  constructor(
    private readonly open: () => Promise<Library>,
    private readonly o: {
      intervalMs: number;
      timers?: WatchTimers;
      /** Told when a newer finished sync is seen (its id). */
      onSync?: (id: number) => void;
      debug?: (line: string) => void;
    },
  ) {}

  /** Subscribes `session` to the record of `uri`; fails (with the library's reason) when the library cannot be read. */
  async subscribe(session: string, uri: string, notify: Notify): Promise<void> {
    const key = recordKey(uri);
    if (key === undefined) throw new Error(`not a subscribable resource: ${uri}`);
    await this.baseline();
    const of = this.subs.get(key) ?? new Map<string, Notify>();
    this.subs.set(key, of);
    of.set(session, notify);
    this.stopTimer ??= (this.o.timers ?? REAL_TIMERS).every(this.o.intervalMs, () => void this.look());
  }

  unsubscribe(session: string, uri: string): void {
    const key = recordKey(uri);
    if (key === undefined) return;
    this.subs.get(key)?.delete(session);
    if (this.subs.get(key)?.size === 0) this.subs.delete(key);
  }

  /** A session that ended: its subscriptions go, and the looks stop when no one is left. */
  forget(session: string): void {
    for (const [key, of] of this.subs) {
      of.delete(session);
      if (of.size === 0) this.subs.delete(key);
    }
    if (this.subs.size === 0) {
      this.stopTimer?.();
      this.stopTimer = undefined;
    }
  }

  /** How many records are subscribed to, by any session. */
  get size(): number {
    return this.subs.size;
  }

  /** The last finished sync seen when the watch began (or since). */
  private async baseline(): Promise<void> {
    if (this.last !== undefined) return;
    this.lib ??= this.open();
    const lib = await this.lib.catch((err: unknown) => {
      this.lib = undefined;
      throw err;
    });
    this.last ??= await latestSync(lib);
  }

  /** One look at the sync records (one at a time); a failure is told with --verbose and the next look tries again. */
  look(): Promise<void> {
    this.looking ??= this.lookOnce()
      .catch((err: unknown) => this.o.debug?.(`mcp: the library's sync records could not be read: ${String(err)}`))
      .finally(() => {
        this.looking = undefined;
      });
    return this.looking;
  }

  private async lookOnce(): Promise<void> {
    if (!this.lib || this.last === undefined) return;
    const lib = await this.lib;
    const id = await latestSync(lib);
    if (id <= this.last) return;
    const from = this.last;
    this.last = id;
    this.o.onSync?.(id);
    if (this.subs.size === 0) return;
    const rows = await lib.db.all<{ resource: unknown; id: unknown }>(
      "SELECT DISTINCT resource, id FROM changes WHERE sync_id > ? AND sync_id <= ? AND resource IN ('peptides', 'studies', 'vendors')",
      [from, id],
    );
    for (const r of rows) {
      const key = `${String(r.resource)}/${String(r.id)}`;
      const of = this.subs.get(key);
      if (!of) continue;
      for (const [session, notify] of of) if (!notify()) of.delete(session);
      if (of.size === 0) this.subs.delete(key);
    }
  }

  async close(): Promise<void> {
    this.stopTimer?.();
    this.stopTimer = undefined;
    const lib = this.lib;
    this.lib = undefined;
    await (await lib?.catch(() => undefined))?.close();
  }
}

/** The largest id of a finished sync, read in a snapshot renewed for the look. */
async function latestSync(lib: Library): Promise<number> {
  await lib.db.exec(
    lib.dialect === "postgres" ? "COMMIT; BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "COMMIT; BEGIN",
  );
  const row = await lib.db.get<{ id: unknown }>("SELECT MAX(id) AS id FROM syncs WHERE status <> 'running'");
  return Number(row?.id ?? 0);
}
