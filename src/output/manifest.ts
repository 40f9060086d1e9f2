/**
 * `--manifest`: `<file>.manifest.json` beside a `--file` export, written once the export
 * is in place (docs/cli.md#manifests). It says what was run (the command words, any
 * password or key-like value masked), against what (base URL, API version, pep version),
 * when (start and end), what came back (each answer's request id and ETag, the item
 * count) and what was written (the file's size and SHA-256), and where the data came
 * from: the API, the sandbox, or the library (its sync id and time).
 *
 * Nothing in it names a credential (every URL goes through core/credentials.ts) or an
 * absolute local path (the export and a SQLite library by their names alone).
 *
 * It is written atomically (core/trusted-file.ts: a temp file beside it, fsynced, renamed onto the name)
 * with the export's own mode: whoever may read the export may read how it was made, and
 * nothing secret is in it. A run that fails before the export is in place never gets here,
 * so an old manifest stays as it was; one that fails writing the manifest removes the old
 * one, which would describe another file.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat, unlink } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../core/errors.js";
import { writeTrusted } from "../core/trusted-file.js";
import { hideUrlCredentials, isSecretParam, MASK } from "../core/credentials.js";

export const MANIFEST_VERSION = 1;

/** The manifest's name beside its export. */
export const manifestPath = (file: string): string => `${file}.manifest.json`;

export interface ManifestFacts {
  /** The command words after `pep`, as typed. */
  argv: readonly string[];
  /** The export as named on the command line, and its absolute path. */
  file: string;
  path: string;
  format: string;
  source: "api" | "sandbox" | "library";
  baseUrl: string | undefined;
  apiVersion: string | undefined;
  pepVersion: string;
  synthetic: boolean;
  /** The API as its index named itself (asked with --manifest online; kept by the last sync offline). */
  api?: { name: string | undefined; version: string | undefined } | undefined;
  library: ManifestLibrary | undefined;
  startedAt: Date;
  finishedAt: Date;
  items: number;
  /** Items skipped because their id came on an earlier page (or in the partial finished). */
  duplicates?: number;
  /** Requests as sent (their URLs, masked here) and their answers, in the order they came. */
  pages: ReadonlyArray<{
    url?: string;
    status: number;
    requestId: string | undefined;
    etag: string | undefined;
    fromCache: boolean;
    role?: string;
  }>;
  /** Each name given that was turned into an item's id: by the API (asked) or by the library. */
  resolved?: ReadonlyArray<{ resource: string; given: string; id: string | null; by: "api" | "library" }>;
}

/** The library an answer came from. */
export interface ManifestLibrary {
  /** Its last finished sync. */
  syncId: string | number | undefined;
  syncedAt: string | undefined;
  /** `--as-of` as given, when the answer was read as of a sync (that sync is `syncId`). */
  asOf?: string | undefined;
  location: string;
  dialect?: "sqlite" | "postgres";
  schemaVersion?: number | undefined;
  /** Per resource read: the complete walk its answer came from (none: never walked whole). */
  walks: ReadonlyArray<{
    resource: string;
    syncId: number | undefined;
    finishedAt: string | undefined;
    startedAt?: string | undefined;
    items?: number | undefined;
  }>;
  /** The stored request of each list page holding items the answer read. */
  pages?: ReadonlyArray<{ resource: string; path: string; query: string; etag: string | undefined; fetchedAt: string }>;
  /** `pep sql`'s statement, or `pep changes`' reading of the log, as run. */
  query?: { sql: string; params: readonly unknown[] } | undefined;
}

/** A request's URL as a manifest says it: its path and query, credentials masked. */
function requestParts(url: string | undefined): { method: "GET"; path: string | null; query: string | null } {
  if (url === undefined) return { method: "GET", path: null, query: null };
  try {
    const u = new URL(url);
    return { method: "GET", path: u.pathname, query: hideUrlCredentials(u.search).replace(/^\?/, "") };
  } catch {
    return { method: "GET", path: null, query: null };
  }
}

function libraryBlock(l: ManifestLibrary) {
  return {
    // The last finished sync of the library; what answered is each resource's walk, below.
    sync_id: l.syncId === undefined ? null : Number(l.syncId),
    synced_at: l.syncedAt ?? null,
    as_of: l.asOf ?? null,
    location: publishable(l.location),
    ...(l.dialect ? { dialect: l.dialect } : {}),
    ...(l.schemaVersion !== undefined ? { schema_version: l.schemaVersion } : {}),
    resources: Object.fromEntries(
      l.walks.map((w) => [
        w.resource,
        {
          sync_id: w.syncId ?? null,
          synced_at: w.finishedAt ?? null,
          ...(w.startedAt !== undefined ? { sync_started_at: w.startedAt } : {}),
          ...(w.items !== undefined ? { items: w.items } : {}),
        },
      ]),
    ),
    ...(l.pages
      ? {
          pages: l.pages.map((p) => ({
            resource: p.resource,
            method: "GET",
            path: p.path,
            query: hideUrlCredentials(`?${p.query}`).slice(1),
            etag: p.etag ?? null,
            fetched_at: p.fetchedAt,
          })),
        }
      : {}),
    ...(l.query ? { query: { sql: l.query.sql, params: [...l.query.params] } } : {}),
  };
}

/**
 * A place as a manifest may say it, for a reader on another machine: a URL with its
 * credentials masked, a local path by its name alone (an absolute path says who and
 * where the user is, and means nothing elsewhere).
 */
function publishable(where: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(where)) return hideUrlCredentials(where);
  return path.isAbsolute(where) ? path.basename(where) : where;
}

/** Flags whose next word is `name=value` (a key-like name's value is masked). */
const PAIR_FLAGS = new Set(["--param", "-F", "--field", "-f", "--raw-field"]);

/**
 * The command words with passwords in URLs and key-like `name=value` values masked, and
 * absolute local paths by their names alone (`publishable`).
 */
export function maskedWords(argv: readonly string[]): string[] {
  const maskPair = (pair: string) => {
    const eq = pair.indexOf("=");
    return eq > 0 && isSecretParam(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=${MASK}` : publishable(pair);
  };
  return argv.map((word, i) => {
    if (i > 0 && PAIR_FLAGS.has(argv[i - 1]!)) return maskPair(word);
    const eq = word.startsWith("--") ? word.indexOf("=") : -1;
    if (eq > 0) {
      const flag = word.slice(0, eq);
      const value = word.slice(eq + 1);
      return `${flag}=${PAIR_FLAGS.has(flag) ? maskPair(value) : publishable(value)}`;
    }
    return publishable(word);
  });
}

async function sha256Of(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), bytes };
}

/** The manifest's JSON object. */
export function manifestOf(facts: ManifestFacts, written: { sha256: string; bytes: number }) {
  return {
    manifest_version: MANIFEST_VERSION,
    command: ["pep", ...maskedWords(facts.argv)],
    file: publishable(facts.file),
    format: facts.format,
    source: facts.source,
    synthetic: facts.synthetic,
    base_url: facts.baseUrl === undefined ? null : hideUrlCredentials(facts.baseUrl),
    api_version: facts.apiVersion ?? null,
    pep_version: facts.pepVersion,
    api:
      facts.baseUrl === undefined && facts.api === undefined
        ? null
        : {
            base_url: facts.baseUrl === undefined ? null : hideUrlCredentials(facts.baseUrl),
            name: facts.api?.name ?? null,
            version: facts.api?.version ?? facts.apiVersion ?? null,
          },
    ...(facts.library ? { library: libraryBlock(facts.library) } : {}),
    resolved: (facts.resolved ?? []).map((r) => ({ resource: r.resource, given: r.given, id: r.id, by: r.by })),
    started_at: facts.startedAt.toISOString(),
    finished_at: facts.finishedAt.toISOString(),
    items: facts.items,
    duplicates_skipped: facts.duplicates ?? 0,
    requests: facts.pages.map((p) => ({
      ...requestParts(p.url),
      purpose: p.role ?? "answer",
      request_id: p.requestId ?? null,
      etag: p.etag ?? null,
      status: p.status,
      from_cache: p.fromCache,
    })),
    bytes: written.bytes,
    sha256: written.sha256,
  };
}

/** A manifest describes a file written whole: not a device or pipe written in place (exit 2). */
export async function checkManifestTarget(file: string): Promise<void> {
  const st = await stat(file).catch(() => undefined);
  if (st && !st.isFile())
    throw new UsageError(`--manifest: ${file} is not a regular file, so there is no finished file to describe`);
}

/** Removes the manifest beside `file`, when there is one (it would describe another file). */
export async function removeManifest(file: string): Promise<void> {
  await unlink(manifestPath(file)).catch(() => undefined);
}

/** Writes `<file>.manifest.json` for the finished export; resolves to its path. */
export async function writeManifest(facts: ManifestFacts): Promise<string> {
  const target = manifestPath(facts.path);
  try {
    const st = await stat(facts.path);
    const text = `${JSON.stringify(manifestOf(facts, await sha256Of(facts.path)), null, 2)}\n`;
    writeTrusted(target, text, { mode: st.mode & 0o666 });
    return target;
  } catch (err) {
    // The export is new: an old manifest beside it would describe another file.
    await unlink(target).catch(() => undefined);
    throw err;
  }
}
