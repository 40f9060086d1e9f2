/**
 * What both stores share when they run `pep sql`'s one statement: the budget of database
 * time (`--timeout`, summed over the pages, so a reader who takes a minute at the pager
 * spends none of it), and how a stop is told. Each store stops its query its own way:
 * SQLite's runs in a child process that is killed (library/sqlite-read.ts), PostgreSQL's
 * is cancelled by the server and its connection dropped (library/pg-read.ts).
 */
import { InterruptedError, NetworkError } from "../core/errors.js";
import type { ReadOptions } from "./db.js";

/** Rows asked of the database at a time: enough to keep it busy, few enough to hold in memory. */
export const PAGE_ROWS = 500;

/** The query ran out of its time (exit 6, as a request past `--timeout`). */
export function queryTimedOut(ms: number): NetworkError {
  const seconds = Math.round(ms / 100) / 10;
  return new NetworkError(`the query ran longer than the time limit of ${seconds} s, and was stopped`, "timeout", {
    hints: ["--timeout <seconds> (or PEP_TIMEOUT) gives it longer; EXPLAIN shows how the database runs it"],
  });
}

/**
 * Runs each wait for the database (`page`) against what is left of the budget and the
 * run's signal: when either ends first, `stop` ends the query for good and the wait
 * rejects (InterruptedError, or the timeout's error).
 */
export function pageClock(options: ReadOptions, stop: () => void) {
  const limit = options.timeoutMs;
  let spent = 0;
  let stopped: Error | undefined;
  const end = (err: Error) => {
    if (stopped) return;
    stopped = err;
    stop();
  };
  return {
    /** Why the query was stopped, once it was. */
    get stopped(): Error | undefined {
      return stopped;
    },
    /** Ends the query (the consumer stopped reading, or an error): no more pages. */
    end: () => end(new InterruptedError()),
    async page<T>(wait: Promise<T>): Promise<T> {
      if (stopped) throw stopped;
      if (options.signal?.aborted) {
        end(new InterruptedError());
        throw stopped;
      }
      const started = Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      let onAbort: (() => void) | undefined;
      const ended = new Promise<never>((_, reject) => {
        if (limit !== undefined) {
          timer = setTimeout(
            () => {
              end(queryTimedOut(limit));
              reject(stopped);
            },
            Math.max(0, limit - spent),
          );
        }
        onAbort = () => {
          end(new InterruptedError());
          reject(stopped);
        };
        options.signal?.addEventListener("abort", onAbort, { once: true });
      });
      ended.catch(() => undefined);
      try {
        return await Promise.race([wait, ended]);
      } catch (err) {
        throw stopped ?? err;
      } finally {
        spent += Date.now() - started;
        if (timer !== undefined) clearTimeout(timer);
        if (onAbort) options.signal?.removeEventListener("abort", onAbort);
      }
    },
  };
}
