/**
 * What kind of value a card is looking at: a cited study (printed in its compact form), a
 * peptide sequence (wrapped between residues), an identifier whose null means "none", a
 * value that fits on one `Label  value` line. Kept apart from the card writer, which only
 * lays these out.
 */
import { asFact, asMoney, asPerson, isPlainObject, isScalar, isScalarArray, type Plain } from "./value-paths.js";

/** Identifiers whose null means the item has none (a study with no trial registration). */
export const IDENTIFIER_KEYS = new Set(["nct_id", "doi", "pmid", "isbn", "pmcid"]);

/** Keys of a study that its compact form already says (or that only repeat its id). */
export const STUDY_COMPACT_KEYS = new Set([
  "id",
  "study_id",
  "title",
  "publication_year",
  "year",
  "study_type",
  "evidence_classification",
  "evidence_classification_label",
  "nct_id",
  "finding_summary",
  "source_url",
  "url",
  "api_url",
]);

export const studyIdOf = (o: Plain): string | undefined => {
  const id = o.study_id ?? o.id;
  return typeof id === "string" && id !== "" ? id : undefined;
};

/** A cited study (an object with a title, an id and a year or an evidence class). */
export function isStudy(o: Plain): boolean {
  return (
    typeof o.title === "string" &&
    studyIdOf(o) !== undefined &&
    ("evidence_classification" in o || "publication_year" in o || "finding_summary" in o)
  );
}

/** Keys of a list that say nothing the section's title does not ("Secondary reports / Studies"). */
export const GENERIC_LIST_KEYS = new Set(["studies", "items", "entries", "results", "list", "value"]);

export const leafOf = (path: string) => path.slice(path.lastIndexOf(".") + 1);

/** A peptide sequence: three-letter residues joined by "-", or one letter per residue. */
export function sequenceUnits(text: string): { units: string[]; sep: string } | undefined {
  if (/^[A-Za-z]{3}(-[A-Za-z]{3,})+$/.test(text)) return { units: text.split("-"), sep: "-" };
  if (/^[A-Z]+$/.test(text)) return { units: [...text], sep: "" };
  return undefined;
}

export const isUrl = (v: unknown): v is string => typeof v === "string" && /^https?:\/\/\S+$/i.test(v);

/** Objects that read as one value: money, a sourced fact, a person's name. */
export function isCompact(v: Plain): boolean {
  return (
    Object.keys(v).length === 0 || asMoney(v) !== undefined || asFact(v) !== undefined || asPerson(v) !== undefined
  );
}

/** Values printed on one `Label  value` line (possibly wrapped). */
export function isInline(v: unknown): boolean {
  if (isScalar(v) || isScalarArray(v)) return true;
  if (isPlainObject(v)) return isCompact(v);
  return (
    Array.isArray(v) && v.every((e) => isScalar(e) || (isPlainObject(e) && isCompact(e) && Object.keys(e).length > 0))
  );
}
