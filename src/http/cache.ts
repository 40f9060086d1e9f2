/**
 * The ETag cache (docs/cli.md#network-behaviour): one file per entry, named by the sha256 of its
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
import { sha256 as sha256Bytes } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  utimesSync,
} from "node:fs";
import { join } from "node:path";
import { makeDirs } from "../core/dirs.js";
import { currentUid, octalMode, unsafeOwnership, type Unsafe } from "../core/owner.js";
import { writeTrusted } from "../core/trusted-file.js";
import { isSendableEtag } from "./etag-value.js";
import type { CacheStore } from "./client-types.js";

/**
 * sha256 in hex, from @noble/hashes: the same digest as node:crypto's, without loading
 * node:crypto (and with it WebCrypto's modules) on every run that reads the cache.
 */
const sha256 = (s: string): string => bytesToHex(sha256Bytes(utf8ToBytes(s)));

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

/** Default size cap of a cache folder (the profile key `cache_max_mb` changes it). */
export const DEFAULT_CACHE_MAX_BYTES = 50 * 1024 * 1024;

/** A pruning run removes entries until the folder is this share of its cap, so the next runs need not prune again. */
const PRUNE_TO = 0.8;

/** A temp file this old was left by a run that ended before its rename; it is removed. */
const STALE_TEMP_MS = 10 * 60 * 1000;

const ENTRY = /^[0-9a-f]{64}\.json$/;
// The one writer's temp file (core/trusted-file.ts tempBeside: `.<entry>.<pid>-<n>.tmp`),
// and the form earlier versions left (`<entry>.<suffix>.tmp`).
const TEMP = /^\.?[0-9a-f]{64}\.json\.[0-9a-z-]+\.tmp$/;

export interface CacheUsage {
  /** The cache folder. */
  dir: string;
  /** Entries and their bytes on disk. */
  entries: number;
  bytes: number;
}

interface Listed {
  file: string;
  bytes: number;
  usedMs: number;
}

/** The folder's entries (and stale temp files, removed on the way); `[]` when there is no folder. */
function listEntries(dir: string, nowMs: number): Listed[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Listed[] = [];
  for (const name of names) {
    const isEntry = ENTRY.test(name);
    if (!isEntry && !TEMP.test(name)) continue; // not pep's: never touched
    const file = join(dir, name);
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile()) continue; // removed meanwhile by another run
    if (isEntry) out.push({ file, bytes: st.size, usedMs: st.mtimeMs });
    else if (nowMs - st.mtimeMs > STALE_TEMP_MS) removeQuietly(file);
  }
  return out;
}

function removeQuietly(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false; // gone already (another run pruned it), or not ours to remove
  }
}

/** How many entries the cache folder holds, and their bytes. */
export function cacheUsage(dir: string): CacheUsage {
  const entries = listEntries(dir, Date.now());
  return { dir, entries: entries.length, bytes: entries.reduce((n, e) => n + e.bytes, 0) };
}

/** Removes every entry (and temp file) of the cache folder; the folder itself stays. */
export function clearCache(dir: string): CacheUsage {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { dir, entries: 0, bytes: 0 };
  }
  let entries = 0;
  let bytes = 0;
  for (const name of names) {
    if (!ENTRY.test(name) && !TEMP.test(name)) continue;
    const file = join(dir, name);
    const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    if (removeQuietly(file) && ENTRY.test(name)) {
      entries++;
      bytes += size;
    }
  }
  return { dir, entries, bytes };
}

/**
 * Keeps the folder under `maxBytes`: when it is over, the least recently used entries
 * (oldest modification time: a hit touches its entry) go first, down to 80% of the cap.
 * Safe beside other runs: a removal that loses a race is ignored, and a run reading an
 * entry that is removed meanwhile sees a miss.
 */
export function pruneCache(dir: string, maxBytes: number, nowMs = Date.now()): { removed: number; bytes: number } {
  const entries = listEntries(dir, nowMs);
  let total = entries.reduce((n, e) => n + e.bytes, 0);
  if (total <= maxBytes) return { removed: 0, bytes: total };
  entries.sort((a, b) => a.usedMs - b.usedMs);
  let removed = 0;
  for (const e of entries) {
    if (total <= maxBytes * PRUNE_TO) break;
    if (removeQuietly(e.file)) removed++;
    total -= e.bytes;
  }
  return { removed, bytes: total };
}

const describe = (where: string, unsafe: Unsafe, uid: number): string =>
  "owner" in unsafe
    ? `${where} belongs to uid ${unsafe.owner}, not to you (uid ${uid})`
    : `${where} can be written by others (mode ${octalMode(unsafe.mode)})`;

/**
 * Why the folder cannot be trusted with answers pep serves again, if it cannot: whoever
 * can write it can plant a body that a 304 would then print as the API's. A folder not
 * made yet is trusted (pep makes it 0700); one that cannot be a folder (a file there, a
 * parent that cannot be read) is no question of trust: its reads and writes fail, and a
 * cache that fails is a miss.
 */
export function untrustedFolder(dir: string): string | undefined {
  const uid = currentUid();
  if (uid === undefined) return undefined;
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(dir, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (!st?.isDirectory()) return undefined;
  const unsafe = unsafeOwnership("folder", st, uid);
  return unsafe && describe(dir, unsafe, uid);
}

/**
 * An entry's text, read from the open file after checking it is a plain file (not a
 * link: O_NOFOLLOW) that only this user could have written; else why not.
 */
function readOwnEntry(file: string): { text: string } | { why: string } {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { why: "it is not a plain file" };
    const uid = currentUid();
    const unsafe = uid === undefined ? undefined : unsafeOwnership("file", st, uid);
    if (unsafe && uid !== undefined) return { why: describe("it", unsafe, uid) };
    return { text: readFileSync(fd, "utf8") };
  } finally {
    closeSync(fd);
  }
}

/**
 * A file-backed store in `dir` (created 0700 on first write; entries 0600), at most
 * `maxBytes` on disk. Pruning lists the folder, so it runs on a run's first write, and
 * then only when the run's own count of the folder's bytes passes the cap: as each
 * pruning leaves 80% of it, an export of 100 pages lists the folder a few times, not
 * 100 times. Other runs writing at once each do the same, so the folder never stays over.
 */
export function createFileCache(
  dir: string,
  options: {
    maxBytes?: number;
    onDropped?: (file: string, why: string) => void;
    /** Said once when the folder is not trusted and the cache is off for the run. */
    onUntrusted?: (why: string) => void;
  } = {},
): CacheStore {
  const maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
  const fileOf = (key: string) => join(dir, `${sha256(key)}.json`);
  /** This run's count of the folder's bytes; unknown until the first write lists it. */
  let folderBytes: number | undefined;
  let trust: boolean | undefined;
  /** Whether the folder may be used: checked once a run, on first use. */
  const trusted = (): boolean => {
    if (trust === undefined) {
      const why = untrustedFolder(dir);
      trust = why === undefined;
      if (why !== undefined) options.onUntrusted?.(why);
    }
    return trust;
  };
  return {
    async get(key) {
      if (!trusted()) return undefined;
      const file = fileOf(key);
      try {
        const read = readOwnEntry(file);
        if ("why" in read) {
          options.onDropped?.(file, `not used: ${read.why}`);
          return undefined;
        }
        const parsed: unknown = JSON.parse(read.text);
        if (!isEntry(parsed)) return undefined;
        // An ETag that cannot be a header again is no entry: dropped, and the fresh
        // answer takes its place, rather than failing every run that reads it.
        if (!isSendableEtag(parsed.etag)) {
          if (removeQuietly(file)) options.onDropped?.(file, "removed: its ETag cannot be sent as a header");
          return undefined;
        }
        // A hit marks the entry as recently used, so pruning takes others first.
        try {
          const now = new Date();
          utimesSync(file, now, now);
        } catch {
          // removed meanwhile: the answer read is still good
        }
        return { etag: parsed.etag, body: parsed.body };
      } catch {
        return undefined;
      }
    },
    async set(key, entry) {
      if (!trusted()) return;
      makeDirs(dir, 0o700);
      const file = fileOf(key);
      const text = JSON.stringify({ etag: entry.etag, body: entry.body });
      const replaced = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
      // Whole or not at all, 0600 whatever the umask: the one atomic writer.
      writeTrusted(file, text);
      if (folderBytes !== undefined) folderBytes += Buffer.byteLength(text) - replaced;
      if (folderBytes === undefined || folderBytes > maxBytes) folderBytes = pruneCache(dir, maxBytes).bytes;
    },
  };
}
