/**
 * Reading pep's output back the way its consumers do: terminal text as seen on screen,
 * CSV with csv-parse, TSV by its escapes, BibTeX and RIS with citation-js.
 */
import { stripVTControlCharacters } from "node:util";
import { Cite, type CslItem } from "@citation-js/core";
import "@citation-js/plugin-bibtex";
import "@citation-js/plugin-ris";
import { parse } from "csv-parse/sync";

/** The text as a terminal shows it: no colours, no OSC 8 link wrappers. */
export function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return stripVTControlCharacters(text.replace(/\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)/g, ""));
}

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });
/** Columns a line takes: one per grapheme, two for wide East Asian ones. */
export function displayWidth(line: string): number {
  let w = 0;
  for (const { segment } of segmenter.segment(line)) {
    const cp = segment.codePointAt(0)!;
    w +=
      (cp >= 0x1100 && cp <= 0x115f) ||
      (cp >= 0x2e80 && cp <= 0xa4cf) ||
      (cp >= 0xac00 && cp <= 0xd7a3) ||
      (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xff00 && cp <= 0xff60) ||
      (cp >= 0x1f300 && cp <= 0x1faff)
        ? 2
        : 1;
  }
  return w;
}

/** The widest visible line of terminal output. */
export function widestLine(text: string): number {
  return Math.max(0, ...visible(text).split("\n").map(displayWidth));
}

export function parseCsv(text: string): Record<string, string>[] {
  return parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

/** TSV rows as objects, unescaping `\t \n \r \\` inside values. */
export function parseTsv(text: string): Record<string, string>[] {
  const lines = text.replace(/\r?\n$/, "").split(/\r?\n/);
  const unescapeCell = (s: string) =>
    s.replace(/\\([tnr\\])/g, (_, c: string) => ({ t: "\t", n: "\n", r: "\r", "\\": "\\" })[c]!);
  const header = lines[0]!.split("\t").map(unescapeCell);
  return lines.slice(1).map((l) => {
    const cells = l.split("\t").map(unescapeCell);
    return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""]));
  });
}

export function parseNdjson(text: string): unknown[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as unknown);
}

/** BibTeX or RIS read back into CSL items by citation-js. */
export async function readCitations(text: string, format: "bibtex" | "ris"): Promise<CslItem[]> {
  const cite = await Cite.async(text, { forceType: format === "bibtex" ? "@biblatex/text" : "@ris/file" });
  return cite.data;
}
