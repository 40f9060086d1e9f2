/**
 * Study ids as people paste them, turned into the API's id forms
 * (docs/api.md#ids-and-slugs): `pmid-<number>`, `doi-<doi with every / written as -->`,
 * `nct-<NCT number>`.
 *
 * Users copy identifiers from papers, PubMed, doi.org links and the trial registry, not
 * from the API; accepting those forms here saves a manual rewrite. Anything that is none
 * of them is refused before any request (exit 2), naming the forms accepted.
 */
import { UsageError } from "../core/errors.js";

/** The forms `pep studies get` accepts, for help and error messages. */
export const STUDY_ID_FORMS = [
  "pmid-<number>",
  "doi-<doi with / written as -->",
  "nct-<NCT number>",
  "a PMID (12345678)",
  "a DOI (10.1000/x, doi:10.1000/x, https://doi.org/10.1000/x)",
  "an NCT number (NCT01234567)",
] as const;

const PMID = /^0*([1-9]\d{0,8})$/;
const NCT = /^nct(\d{8})$/i;
/** A DOI: the `10.` directory indicator, a registrant code, a slash and a suffix. */
const DOI = /^10\.\d{4,9}\/\S+$/;
const DOI_PREFIX = /^(?:doi:|(?:https?:\/\/)?(?:dx\.)?doi\.org\/)/i;
const PUBMED_URL =
  /^(?:https?:\/\/)?(?:www\.)?(?:pubmed\.ncbi\.nlm\.nih\.gov|ncbi\.nlm\.nih\.gov\/pubmed)\/(\d+)\/?(?:[?#].*)?$/i;
const TRIAL_URL = /^(?:https?:\/\/)?(?:www\.)?clinicaltrials\.gov\/(?:ct2\/show|study)\/(nct\d{8})\/?(?:[?#].*)?$/i;

/** The API id of `input`, or undefined when it is none of the accepted forms. */
export function parseStudyId(input: string): string | undefined {
  // "doi: 10.1000/x" as printed on papers: the space after the label is not part of it.
  const s = input.trim().replace(/^doi:\s+/i, "doi:");
  if (s === "" || /\s/.test(s)) return undefined;

  // The API's own forms (prefix in any case).
  const prefixed = /^(pmid|doi|nct)-(.+)$/i.exec(s);
  if (prefixed) {
    const kind = prefixed[1]!.toLowerCase();
    const rest = prefixed[2]!;
    if (kind === "pmid") return pmid(rest);
    if (kind === "nct") return nct(rest);
    return doiId(rest.includes("/") ? rest : rest.split("--").join("/"));
  }

  const fromPubmed = PUBMED_URL.exec(s);
  if (fromPubmed) return pmid(fromPubmed[1]!);
  const fromRegistry = TRIAL_URL.exec(s);
  if (fromRegistry) return nct(fromRegistry[1]!);

  const pm = /^pmid:?(\d+)$/i.exec(s);
  if (pm) return pmid(pm[1]!);
  if (/^\d+$/.test(s)) return pmid(s);
  if (NCT.test(s)) return nct(s);

  const withoutPrefix = s.replace(DOI_PREFIX, "");
  const doi = withoutPrefix === s ? s : decode(withoutPrefix);
  return doi === undefined ? undefined : doiId(doi);
}

/**
 * Like `parseStudyId`, but a usage error (exit 2) naming the accepted forms. `label` names
 * the argument as its caller knows it: `<id>` on the command line, `id` for a tool.
 */
export function toStudyId(input: string, label = "<id>"): string {
  const id = parseStudyId(input);
  if (id === undefined) {
    throw new UsageError(`${label} "${input}" is not a study id`, {
      hints: [`accepted: ${STUDY_ID_FORMS.join("; ")}`],
    });
  }
  return id;
}

function pmid(digits: string): string | undefined {
  const m = PMID.exec(digits);
  return m ? `pmid-${m[1]}` : undefined;
}

function nct(value: string): string | undefined {
  const m = NCT.exec(value);
  return m ? `nct-NCT${m[1]}` : undefined;
}

/** `10.1000/a/b` -> `doi-10.1000--a--b` */
function doiId(doi: string): string | undefined {
  if (!DOI.test(doi)) return undefined;
  return `doi-${doi.split("/").join("--")}`;
}

/** A DOI taken from a link may be percent-encoded (`10.1000%2Fx`). */
function decode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
