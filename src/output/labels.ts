/**
 * Short labels for the enumerated values a table shows, so a column of them reads at a
 * glance and fits its width whole: `human_controlled_trial` is "controlled trial". Each
 * map covers the values the spec names (docs/api.md#enumerated-values); a value it does
 * not know passes through unchanged. Cards and machine formats keep the API's words.
 */
import type { EVIDENCE_CLASSIFICATIONS, EVIDENCE_LEVELS, REGULATORY_STATUSES } from "../api/enums.js";

export type Labels = Readonly<Record<string, string>>;

/** `evidence.level` of a peptide: the filter's values, shortened where they run long. */
export const EVIDENCE_LEVEL_LABELS: Readonly<Record<(typeof EVIDENCE_LEVELS)[number], string>> = {
  "fda-approved": "FDA-approved",
  "established-human": "established",
  "clinical-trial": "clinical trial",
  "limited-human": "limited human",
  preclinical: "preclinical",
  insufficient: "insufficient",
};

/** `regulatory_status`: already short words, kept (they are what `--regulatory-status` takes). */
export const REGULATORY_LABELS: Readonly<Record<(typeof REGULATORY_STATUSES)[number], string>> = {
  approved: "approved",
  investigational: "investigational",
  experimental: "experimental",
  withdrawn: "withdrawn",
  insufficient: "insufficient",
};

/** A study's `evidence_classification`. */
export const CLASSIFICATION_LABELS: Readonly<Record<(typeof EVIDENCE_CLASSIFICATIONS)[number], string>> = {
  regulatory_label: "regulatory label",
  human_controlled_trial: "controlled trial",
  human_study: "human study",
  secondary_report: "secondary report",
  animal_or_lab: "animal/lab",
  in_vitro: "in vitro",
};

/** The `type` of a search's content item. */
export const CONTENT_TYPE_LABELS: Labels = {
  site_faq: "site FAQ",
  peptide_faq: "peptide FAQ",
  faq: "FAQ",
  article: "article",
  course: "course",
};

/** The label of a value, or the value itself when the map does not know it. */
export function labelOf(labels: Labels, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value]! : value;
}

/** The widest label of a map: a column of these values is shown whole or not at all. */
export function widestLabel(labels: Labels, measure: (s: string) => number): number {
  return Math.max(0, ...Object.values(labels).map(measure));
}

/**
 * An FDA status as a short phrase: its first clause, without a closing parenthetical
 * ("Investigational; not approved" is "Investigational", "Approved (synthetic record)"
 * is "Approved"). The card keeps the whole text.
 */
export function shortStatus(text: string): string {
  const clause = text
    .split(";")[0]!
    .replace(/\s*\([^()]*\)\s*$/, "")
    .trim();
  return clause === "" ? text : clause;
}

/**
 * A timestamp as its date when the time of day adds nothing in a table (when an offer
 * was last seen): `2025-05-30T16:00:00Z` is `2025-05-30`. Anything else passes through.
 */
export function dateOnly(text: string): string {
  const m = /^(\d{4}-\d\d-\d\d)[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?$/.exec(text);
  return m ? m[1]! : text;
}

/** A timestamp at midnight UTC as its date (a check, a catalog update); anything else as it is. */
export function midnightAsDate(text: string): string {
  return text.replace(/^(\d{4}-\d\d-\d\d)T00:00(:00(\.0+)?)?(Z|[+-]00:?00)$/, "$1");
}

/** Sizes as people read them: `0 MB`, `0.4 MB`, `11.2 MB`, `50 MB` (1 MB = 1,048,576 bytes, as du -h counts). */
export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  const shown = mb === 0 || mb >= 10 ? Math.round(mb * 10) / 10 : Math.max(0.1, Math.round(mb * 10) / 10);
  return `${Number.isInteger(shown) ? shown : shown.toFixed(1)} MB`;
}

/** A field holding a byte count (`bytes`, `max_bytes`): shown in megabytes on a terminal, exact in JSON. */
export const isByteCount = (key: string) => key === "bytes" || key.endsWith("_bytes");
