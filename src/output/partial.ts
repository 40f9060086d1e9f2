/**
 * What a cut-short `--file` export keeps, so the same command run again finishes it:
 * `<file>.partial`, the output so far (whole pages, as the format writes them), and
 * `<file>.partial.json`, its state: when it was made, what decides the output's bytes
 * (the content key, cli/partial-run.ts), where to go on (the next page's cursor, what is
 * left of a `--limit`), what is kept (how many items, their ids, the size and SHA-256 of
 * the kept bytes, the citation keys used) and the last kept page (the cursor that
 * fetched it, its ids and a digest of its items) to check the data still lines up. No
 * credentials: the content key holds the base URL without a password, and no proxy.
 *
 * Both files are side files (core/trusted-file.ts): read only when they are the user's
 * own plain files in a folder nobody else can change, written 0600 with O_EXCL.
 */
import { createHash } from "node:crypto";
import { closeSync, readFileSync } from "node:fs";
import type { OutputFormat } from "../api/enums.js";
import { openTrusted, readTrusted, unlinkQuietly, writeTrusted } from "../core/trusted-file.js";

export const PARTIAL_VERSION = 2;

/** The last whole page a partial holds: fetched again on resuming, to see whether the data moved. */
export interface LastPage {
  /** The cursor that fetched it; null for the first page. */
  cursor: string | null;
  ids: string[];
  /** SHA-256 of its items as received (one JSON text a line). */
  digest: string;
}

export interface PartialState {
  version: typeof PARTIAL_VERSION;
  /** When the first run of the export began keeping it (ISO 8601). */
  created_at: string;
  /** What decides the output's bytes, normalised (cli/partial-run.ts contentKey). */
  key: Record<string, unknown>;
  format: OutputFormat;
  /** The cursor of the first page not yet kept. */
  cursor: string;
  /** What is left of a `--limit`; null for every page. */
  remaining: number | null;
  /** Items kept so far. */
  items: number;
  /** Ids of the items kept, so the rest never repeats one. */
  ids: string[];
  /** Size and SHA-256 of `<file>.partial`. */
  bytes: number;
  sha256: string;
  /** Citation keys used so far (BibTeX, RIS, CSL-JSON), so the rest never repeats one. */
  keys: string[];
  last_page: LastPage | null;
  /** The export's first page, likewise: items added at the front show there whatever the cursors. */
  first_page: LastPage | null;
  /** The process that kept it. */
  pid: number;
}

export function partialPaths(target: string): { data: string; state: string } {
  return { data: `${target}.partial`, state: `${target}.partial.json` };
}

export const sha256Hex = (data: Buffer | string): string => createHash("sha256").update(data).digest("hex");

/** What was found beside a target: a partial to go on from, or one that must not be used (and why). */
export type FoundPartial =
  | { state: PartialState }
  /** `ours`: trusted files whose content is not a partial pep kept (dropped, not just ignored). */
  | { ignored: string; path: string; ours?: boolean }
  | undefined;

function wellFormed(s: Partial<PartialState>): s is PartialState {
  return (
    s.version === PARTIAL_VERSION &&
    typeof s.cursor === "string" &&
    typeof s.created_at === "string" &&
    typeof s.sha256 === "string" &&
    Number.isInteger(s.bytes) &&
    Number.isInteger(s.items) &&
    Array.isArray(s.ids) &&
    Array.isArray(s.keys) &&
    typeof s.key === "object" &&
    s.key !== null &&
    s.first_page !== undefined &&
    s.last_page !== undefined
  );
}

/**
 * The partial export of `target`: undefined when there is none; `{ ignored }` when one is
 * there that cannot be trusted (a link, another user's file, a folder others can write),
 * is not one pep wrote, or whose bytes differ from what its state recorded.
 */
export function readPartial(target: string): FoundPartial {
  const { data, state } = partialPaths(target);
  const read = readTrusted(state);
  const dataFile = openTrusted(data);
  if (read === undefined || dataFile === undefined) {
    if (dataFile !== undefined && !("why" in dataFile)) closeSync(dataFile.fd);
    if (read && "why" in read) return { ignored: `it ${read.why}`, path: state };
    if (dataFile && "why" in dataFile) return { ignored: `it ${dataFile.why}`, path: data };
    return undefined;
  }
  if ("why" in read) {
    if (!("why" in dataFile)) closeSync(dataFile.fd);
    return { ignored: `it ${read.why}`, path: state };
  }
  if ("why" in dataFile) return { ignored: `it ${dataFile.why}`, path: data };
  let bytes: Buffer;
  try {
    bytes = readFileSync(dataFile.fd);
  } finally {
    closeSync(dataFile.fd);
  }
  let parsed: Partial<PartialState>;
  try {
    parsed = JSON.parse(read.text) as Partial<PartialState>;
  } catch {
    return { ignored: "it is not a state pep wrote", path: state, ours: true };
  }
  if (!wellFormed(parsed)) return { ignored: "it is not a state this version of pep wrote", path: state, ours: true };
  if (bytes.length !== parsed.bytes || sha256Hex(bytes) !== parsed.sha256)
    return { ignored: "its bytes are not the ones pep kept (size or SHA-256 differ)", path: data, ours: true };
  return { state: parsed };
}

/** The size and SHA-256 of a kept partial, read as a trusted file. */
export function digestOf(file: string): { bytes: number; sha256: string } | undefined {
  const opened = openTrusted(file);
  if (opened === undefined || "why" in opened) return undefined;
  try {
    const bytes = readFileSync(opened.fd);
    return { bytes: bytes.length, sha256: sha256Hex(bytes) };
  } finally {
    closeSync(opened.fd);
  }
}

/** Writes the state of a partial export (its data is in place already): whole, mode 0600, never through a link. */
export function writePartialState(target: string, state: PartialState): void {
  writeTrusted(partialPaths(target).state, `${JSON.stringify(state, null, 2)}\n`);
}

/** Removes a partial export; the paths that could not be removed (another user's files). */
export function dropPartial(target: string): string[] {
  const { data, state } = partialPaths(target);
  return [state, data].filter((f) => !unlinkQuietly(f));
}

/** The citation keys in a partial export's text, so a continued run makes new ones. */
export function keysIn(text: string, format: OutputFormat): string[] {
  const pattern =
    format === "bibtex"
      ? /^@\w+\{([^,\s]+),/gm
      : format === "ris"
        ? /^ID {2}- (.+?)\r?$/gm
        : format === "csl-json"
          ? /^ {4}"id": "((?:[^"\\]|\\.)*)"/gm
          : undefined;
  return pattern ? [...text.matchAll(pattern)].map((m) => m[1]!) : [];
}
