/**
 * The web page of a record, for `pep browse` and `--web`: a peptide's profile page
 * (`url`), a vendor's page in the directory (`profile_url`, else `url`), and a study's
 * source: PubMed for a PMID, doi.org for a DOI, ClinicalTrials.gov for an NCT number,
 * else the record's `source_url`, else its `url` (docs/cli.md#opening-a-records-page).
 *
 * A study's registry pages are built from its identifiers, each checked against its
 * pattern, so they lead to those registries and nowhere else. An address the API sends
 * is taken only when it is an absolute http(s) URL without a user name or password (no
 * `javascript:`, `file:` or `https://pubmed.ncbi.nlm.nih.gov@elsewhere.example`), and it
 * is handed on as the URL parser writes it: ASCII only, no spaces, no control characters.
 */
export type PageKind = "peptide" | "study" | "vendor";

/** The fields each kind's page is read from, in order of preference, for messages and docs. */
export const PAGE_FIELDS: Readonly<Record<PageKind, readonly string[]>> = {
  peptide: ["url"],
  vendor: ["profile_url", "url"],
  study: ["pmid", "doi", "nct_id", "source_url", "url"],
};

export interface Page {
  url: string;
  /** The field it came from (`pmid`, `url`). */
  field: string;
}

/**
 * Synthetic (sandbox) data names identifiers that do not exist: its study's page is the
 * record's own (`url`, else `source_url`), never a real registry's page for a made-up PMID,
 * DOI or NCT number.
 */
export const SYNTHETIC_PAGE_FIELDS: Readonly<Record<PageKind, readonly string[]>> = {
  ...PAGE_FIELDS,
  study: ["url", "source_url"],
};

/** Whether an answer's `meta` marks its data as the sandbox's. */
export function isSyntheticMeta(meta: unknown): boolean {
  return typeof meta === "object" && meta !== null && (meta as Record<string, unknown>).sandbox === true;
}

/** A record's page, and the values passed over as not http(s) addresses (for the message when none is left). */
export function pageOf(
  kind: PageKind,
  record: unknown,
  options: { synthetic?: boolean } = {},
): { page: Page | undefined; refused: Page[] } {
  const refused: Page[] = [];
  const data = (typeof record === "object" && record !== null ? record : {}) as Record<string, unknown>;
  for (const field of (options.synthetic ? SYNTHETIC_PAGE_FIELDS : PAGE_FIELDS)[kind]) {
    const value = data[field];
    if (value === undefined || value === null || value === "") continue;
    const url = kind === "study" ? (registryPage(field, value) ?? webAddress(value)) : webAddress(value);
    if (url !== undefined) return { page: { url, field }, refused };
    refused.push({ url: String(typeof value === "object" ? JSON.stringify(value) : value), field });
  }
  return { page: undefined, refused };
}

const PMID = /^[1-9]\d{0,9}$/;
const DOI = /^10\.\d{4,9}\/\S+$/;
const NCT = /^NCT\d{8}$/i;

/** The registry page of a study identifier, or undefined for another field or a malformed value. */
function registryPage(field: string, value: unknown): string | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const v = String(value).trim();
  if (field === "pmid") return PMID.test(v) ? `https://pubmed.ncbi.nlm.nih.gov/${v}/` : undefined;
  if (field === "doi") {
    if (!DOI.test(v)) return undefined;
    return `https://doi.org/${v.split("/").map(encodeURIComponent).join("/")}`;
  }
  if (field === "nct_id") return NCT.test(v) ? `https://clinicaltrials.gov/study/${v.toUpperCase()}` : undefined;
  return undefined;
}

/** An absolute http(s) URL without credentials, as the URL parser writes it; else undefined. */
export function webAddress(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username !== "" || url.password !== "") return undefined;
  return url.href;
}
