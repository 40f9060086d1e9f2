/**
 * What a cut-short `--file` export keeps, so the same command run again finishes it:
 * `<file>.partial`, the output so far (whole pages, as the format writes them), and
 * `<file>.partial.json` (mode 0600), what the run was (its words, base URL, profile,
 * format) and where to go on (the next page's cursor, what is left of a `--limit`, how
 * many items are out, the citation keys used). The target itself is never touched until
 * the whole list is in place.
 */
import { readFile, rename, unlink, writeFile } from "node:fs/promises";
import type { OutputFormat } from "../api/enums.js";

export interface PartialState {
  version: 1;
  /** The command's words, less `--cursor` and `--restart`. */
  command: string[];
  baseUrl: string;
  profile: string;
  format: OutputFormat;
  /** `--jq`, when the output is jq's. */
  jq: string | null;
  /** The cursor of the first page not yet kept. */
  cursor: string;
  /** What is left of a `--limit`; null for every page. */
  remaining: number | null;
  /** Items kept so far. */
  items: number;
  /** Citation keys used so far (BibTeX, RIS, CSL-JSON), so the rest never repeats one. */
  keys: string[];
  /** The process that kept it. */
  pid: number;
}

export function partialPaths(target: string): { data: string; state: string } {
  return { data: `${target}.partial`, state: `${target}.partial.json` };
}

/** The state of a partial export of `target`, or undefined when there is none (or it is unreadable). */
export async function readPartial(target: string): Promise<PartialState | undefined> {
  const { data, state } = partialPaths(target);
  try {
    const parsed = JSON.parse(await readFile(state, "utf8")) as PartialState;
    await readFile(data).then(() => undefined);
    if (parsed.version !== 1 || typeof parsed.cursor !== "string" || !Array.isArray(parsed.command)) return undefined;
    return parsed;
  } catch {
    return undefined;
  }
}

/** Writes the state of a partial export (its data is in place already), atomically, mode 0600. */
export async function writePartialState(target: string, state: PartialState): Promise<void> {
  const { state: statePath } = partialPaths(target);
  const temp = `${statePath}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, statePath);
}

export async function dropPartial(target: string): Promise<void> {
  const { data, state } = partialPaths(target);
  await unlink(state).catch(() => undefined);
  await unlink(data).catch(() => undefined);
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
