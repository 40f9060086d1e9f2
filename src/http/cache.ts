/**
 * The ETag cache (contract section 6): one file per entry, named by the sha256 of its
 * key, holding `{etag, body}`. Keys fold in a fingerprint of the API key, so answers
 * seen with one key are never served under another; the key itself is never stored.
 *
 * A cache is an optimisation: an entry that cannot be read or parsed is a miss, and a
 * write that fails is dropped by the client, never an error for the user.
 *
 * Entries are read and written with synchronous calls: they are small, and each call of
 * fs/promises is several trips through the thread pool (open, stat, read, close), which
 * cost an export of 100 pages more than the reading and writing itself.
 */
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeDirs } from "../dirs.js";
import type { CacheStore } from "./types.js";

const sha256 = (s: string): string => createHash("sha256").update(s, "utf8").digest("hex");

/**
 * The identity of a cached answer: base URL, path, query with its parameters sorted
 * (order does not change the answer), and the sha256 of the key (or "anonymous").
 * `pathAndQuery` may also be a full URL.
 */
export function cacheKey(baseUrl: string, pathAndQuery: string, apiKey?: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  const url = new URL(pathAndQuery, "http://cache.invalid/");
  const params = [...url.searchParams.entries()].sort(([a, av], [b, bv]) =>
    a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0,
  );
  const query = new URLSearchParams(params).toString();
  const where = /^[a-z][a-z0-9+.-]*:\/\//i.test(pathAndQuery) ? url.origin + url.pathname : base + url.pathname;
  const who = apiKey ? `key:${sha256(apiKey)}` : "anonymous";
  return JSON.stringify(["pep-etag-v1", where, query, who]);
}

function isEntry(v: unknown): v is { etag: string; body: string } {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as { etag?: unknown }).etag === "string" &&
    typeof (v as { body?: unknown }).body === "string"
  );
}

/** A file-backed store in `dir` (created 0700 on first write; entries 0600). */
export function createFileCache(dir: string): CacheStore {
  const fileOf = (key: string) => join(dir, `${sha256(key)}.json`);
  return {
    async get(key) {
      try {
        const parsed: unknown = JSON.parse(readFileSync(fileOf(key), "utf8"));
        return isEntry(parsed) ? { etag: parsed.etag, body: parsed.body } : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, entry) {
      makeDirs(dir, 0o700);
      const file = fileOf(key);
      const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        writeFileSync(tmp, JSON.stringify({ etag: entry.etag, body: entry.body }), { mode: 0o600, flag: "wx" });
        // The umask may have narrowed the mode, never widened it; make it exact.
        chmodSync(tmp, 0o600);
        renameSync(tmp, file);
      } catch (err) {
        try {
          unlinkSync(tmp);
        } catch {
          // never made, or already gone
        }
        throw err;
      }
    },
  };
}
