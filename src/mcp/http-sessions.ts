/**
 * The sessions of `pep mcp --http`, with a lifecycle: each is used by requests (a POST,
 * an open GET stream) and is idle when none is open. An idle session expires after the
 * idle time; at the cap, a new session takes the place of the one idle the longest, and
 * when every session is in use a new one is refused (503). A session still starting (its
 * initialize answered, no request of its own ended yet) is never taken, and sessions
 * being started count against the cap, so concurrent newcomers cannot push one out. Each keeps at
 * most a bounded number of bytes of events for resumption (`Last-Event-ID`), so what a
 * session holds is bounded whatever its client does.
 */
import type { EventStore } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export interface SessionLimits {
  /** A session with no request and no open stream for this long is closed (ms). */
  idleMs: number;
  /** Most sessions at once. */
  max: number;
  /** Bytes of events a session keeps for resumption. */
  eventBytes: number;
}

/** How long a session just initialized is kept from being closed for a newcomer, waiting for its client's next request (ms). */
export const STARTING_MS = 10_000;

/** Defaults of `--session-idle`, `--max-sessions` and the event bound. */
export const SESSION_DEFAULTS: SessionLimits = { idleMs: 5 * 60_000, max: 64, eventBytes: 1024 * 1024 };

export interface Session {
  id: string;
  /** Requests and streams open now. */
  busy: number;
  /** When its last request or stream ended (or it started). */
  lastUsed: number;
  /** A request of its own (after initialize) has ended: its client is past starting. */
  settled?: boolean;
  close(): Promise<void>;
}

/** Why no session could be made room for: how many are starting, how many in use. */
export interface NoRoom {
  starting: number;
  inUse: number;
}

export class Sessions<S extends Session> {
  private readonly table = new Map<string, S>();
  private timer: NodeJS.Timeout | undefined;
  /** Sessions being started (initialize received, not yet answered). */
  private pending = 0;

  constructor(
    readonly limits: SessionLimits,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.table.size;
  }

  get(id: string): S | undefined {
    return this.table.get(id);
  }

  add(session: S): void {
    this.table.set(session.id, session);
    // Checked often enough that a session outlives its idle time by at most a quarter of it.
    this.timer ??= setInterval(() => void this.sweep(), Math.max(250, Math.min(this.limits.idleMs / 4, 30_000)));
    this.timer.unref();
  }

  remove(id: string): void {
    this.table.delete(id);
  }

  /** Marks a request or stream of `session` open; the function returned marks it ended. */
  use(session: S): () => void {
    session.busy++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      session.busy--;
      session.settled = true;
      session.lastUsed = this.now();
    };
  }

  /**
   * Room for one more session, reserved until `started()` is called: at the cap, the
   * settled session idle the longest is closed. When none can go, why (the caller
   * refuses the new one).
   */
  async makeRoom(): Promise<NoRoom | undefined> {
    if (this.table.size + this.pending >= this.limits.max) {
      let oldest: S | undefined;
      for (const s of this.table.values())
        if (this.givesWay(s) && (!oldest || s.lastUsed < oldest.lastUsed)) oldest = s;
      if (!oldest) {
        const starting =
          this.pending + [...this.table.values()].filter((s) => !this.givesWay(s) && s.busy === 0).length;
        return { starting, inUse: this.table.size + this.pending - starting };
      }
      await this.end(oldest);
    }
    this.pending++;
    return undefined;
  }

  /**
   * Whether a session may be closed for a newcomer: idle, and past starting (a request of
   * its own ended, or it has said nothing since its initialize for `STARTING_MS`: a
   * client that never finishes starting holds no place for long).
   */
  private givesWay(s: S): boolean {
    return s.busy === 0 && (s.settled === true || this.now() - s.lastUsed >= STARTING_MS);
  }

  /** The session reserved by `makeRoom` was started (added) or failed to start. */
  started(): void {
    if (this.pending > 0) this.pending--;
  }

  /** Closes the sessions idle past the idle time. */
  async sweep(): Promise<void> {
    const now = this.now();
    for (const s of [...this.table.values()])
      if (s.busy === 0 && now - s.lastUsed >= this.limits.idleMs) await this.end(s);
  }

  private async end(s: S): Promise<void> {
    this.table.delete(s.id);
    await s.close().catch(() => {});
  }

  async closeAll(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const s of [...this.table.values()]) await this.end(s);
  }
}

interface Stored {
  id: string;
  stream: string;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * A session's events, for `Last-Event-ID`: the newest that fit in `maxBytes`, oldest
 * dropped first. A stream resumed from an event no longer kept cannot be resumed (the
 * SDK answers so); one larger than the whole bound is numbered but not kept.
 */
export class BoundedEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private bytes = 0;
  private next = 0;

  constructor(private readonly maxBytes: number) {}

  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}.${++this.next}`;
    const bytes = JSON.stringify(message).length;
    if (bytes > this.maxBytes) return id;
    this.events.push({ id, stream, message, bytes });
    this.bytes += bytes;
    while (this.bytes > this.maxBytes) this.bytes -= this.events.shift()!.bytes;
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.stream;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at === -1) throw new Error(`event ${lastEventId} is no longer kept`);
    const stream = this.events[at]!.stream;
    for (const e of this.events.slice(at + 1)) if (e.stream === stream) await send(e.id, e.message);
    return stream;
  }
}
