/**
 * More of the hostile API, in the spec's shapes (and the sandbox's): the research
 * summary, regulatory status and cited studies of a peptide, vendor shipping and
 * comparison, offers and products with their affiliate disclosure, search sections,
 * categories and research areas. Every string is `hostile(<TAG>)`; prices are plain
 * decimal strings beside hostile currencies, to show they print byte for byte.
 *
 *   const api = await startHostileApi(serveMore);
 */
import type { ServerResponse } from "node:http";
import { envelope, sendJson, type RecordedRequest } from "./server.js";
import { DISCLOSURE, HOSTILE_KEY, HOSTILE_URLS, hostile, studyEntry } from "./hostile-api.js";

type Item = Record<string, unknown>;

/** Decimal strings the API sends as prices: never parsed, so never rounded. */
export const PRICES = ["0.10", "1000000.00000001", "46.84"] as const;

const CHECKED = "2025-05-26T00:00:00Z";

/** A study as the research summary cites it. */
function studyRef(tag: string, url: string = HOSTILE_URLS.plain): Item {
  return {
    study_id: `pmid-${tag.length}00`,
    title: hostile(`${tag}TITLE`),
    publication_year: 2021,
    study_type: hostile(`${tag}TYPE`),
    evidence_classification: "human_controlled_trial",
    evidence_classification_label: hostile(`${tag}LABEL`),
    nct_id: null,
    finding_summary: hostile(`${tag}FINDING`),
    source_url: url,
  };
}

const peptideRef = (): Item => ({ id: "pep-0", name: hostile("RSPEPTIDE"), url: HOSTILE_URLS.breakout });

export function researchSummary(): Item {
  return {
    peptide: peptideRef(),
    evidence_level: hostile("RSLEVEL"),
    mechanisms: [{ target: hostile("MECHTARGET"), summary: hostile("MECHSUMMARY") }],
    clinical_evidence: {
      summary: hostile("CLINSUMMARY"),
      human_trials: [studyRef("TRIAL", HOSTILE_URLS.bell), studyRef("TRIALTWO")],
      other_human_studies: [studyRef("HUMANSTUDY", HOSTILE_URLS.c1)],
    },
    preclinical_evidence: {
      summary: hostile("PRECLINSUMMARY"),
      animal_studies: [studyRef("ANIMAL", HOSTILE_URLS.scheme)],
      in_vitro_studies: [studyRef("INVITRO", HOSTILE_URLS.bidi)],
    },
    secondary_reports: [studyRef("SECONDARY")],
    safety: {
      summary: hostile("SAFETYSUMMARY"),
      reported_adverse_events: [hostile("ADVERSE")],
      known_interactions: hostile("INTERACTIONS"),
    },
    limitations: [hostile("LIMITATION")],
    research_gaps: [hostile("GAP")],
    references: [studyRef("REFERENCE", HOSTILE_URLS.breakout)],
    reviewed_at: "2023-12-22T00:00:00Z",
    [HOSTILE_KEY]: hostile("RSKEY"),
  };
}

export function regulatoryStatus(): Item {
  return {
    peptide: peptideRef(),
    regulatory_status: hostile("REGSTATUS"),
    fda_status: hostile("FDASTATUS"),
    wada_status: hostile("WADASTATUS"),
    availability: hostile("AVAILABILITY"),
    development_stage: hostile("DEVSTAGE"),
    reviewed_at: "2023-12-22T00:00:00Z",
    [HOSTILE_KEY]: hostile("REGKEY"),
  };
}

const source = (tag: string, url: string): Item => ({ type: hostile(`${tag}SRC`), url, checked_at: CHECKED });

/** The shipping facts of vendor `i`, each with a source. */
function shippingFacts(i: number): Item {
  return {
    destinations: {
      value: { coverage: hostile(`COVERAGE${i}`), countries: [hostile(`COUNTRY${i}`)] },
      source: source(`DEST${i}`, HOSTILE_URLS.breakout),
    },
    exclusions: { value: [hostile(`EXCLUDED${i}`)], source: source(`EXCL${i}`, HOSTILE_URLS.plain) },
    methods: {
      value: [{ name: hostile(`METHOD${i}`), carrier: hostile(`CARRIER${i}`), estimated_days: hostile(`DAYS${i}`) }],
      source: source(`METH${i}`, HOSTILE_URLS.bell),
    },
    free_shipping: {
      value: { available: true, threshold: hostile(`THRESHOLD${i}`) },
      source: source(`FREE${i}`, HOSTILE_URLS.c1),
    },
    returns: {
      value: { accepted: true, window_days: 14, conditions: hostile(`RETURNS${i}`) },
      source: source(`RET${i}`, HOSTILE_URLS.bidi),
    },
  };
}

export function vendorShipping(): Item {
  return {
    vendor: {
      id: "v0",
      slug: "vendor-0",
      name: hostile("SHIPVENDOR"),
      profile_url: HOSTILE_URLS.breakout,
      website_url: HOSTILE_URLS.scheme,
    },
    ...shippingFacts(0),
    [HOSTILE_KEY]: hostile("SHIPKEY"),
  };
}

export function vendorComparison(ids: string[]): Item {
  return {
    ships_to: null,
    vendors: ids.map((id, i) => ({
      id,
      slug: `vendor-${i}`,
      name: hostile(`CMPNAME${i}`),
      country: hostile(`CMPCOUNTRY${i}`),
      profile_url: i === 0 ? HOSTILE_URLS.plain : HOSTILE_URLS.breakout,
      website_url: HOSTILE_URLS.scheme,
      rating: { average: 4.5, count: 10, verified_count: 3 },
      catalog: { product_count: 8, peptide_count: 8, last_checked_at: CHECKED },
      product_categories: ["peptides", hostile(`CMPCAT${i}`)],
      shipping: shippingFacts(i),
      [HOSTILE_KEY]: hostile(`CMPKEY${i}`),
    })),
  };
}

/** One offer per price, each in a hostile currency. */
export const OFFERS: Item[] = PRICES.map((price, i) => ({
  id: `off_${i}`,
  peptide: { id: "pep-0", name: hostile(`OFFERPEPTIDE${i}`) },
  vendor: { id: `v${i}`, name: hostile(`OFFERVENDOR${i}`), slug: `vendor-${i}`, url: HOSTILE_URLS.breakout },
  product_name: hostile(`OFFERPRODUCT${i}`),
  form: hostile(`OFFERFORM${i}`),
  price,
  currency: hostile(`CUR${i}`),
  last_seen_at: "2025-05-30T16:00:00Z",
  product_page_url: Object.values(HOSTILE_URLS)[i + 3],
  in_stock: true,
  [HOSTILE_KEY]: hostile(`OFFERKEY${i}`),
}));

export const PRODUCTS: Item[] = [0, 1].map((i) => ({
  id: `prd_${i}`,
  peptide: { id: "pep-0", name: hostile(`PRODPEPTIDE${i}`) },
  form: hostile(`PRODFORM${i}`),
  name: hostile(`PRODNAME${i}`),
  url: i === 0 ? HOSTILE_URLS.plain : HOSTILE_URLS.breakout,
  product_category: "peptides",
  price_ranges: [{ currency: hostile(`RANGECUR${i}`), min: PRICES[0], max: PRICES[1], offer_count: 2 }],
  vendor_count: 2,
}));

export function searchResult(): Item {
  return {
    peptides: [0, 1].map((i) => ({
      id: `pep-${i}`,
      name: hostile(`SEARCHPEP${i}`),
      categories: [hostile(`SEARCHCAT${i}`)],
      evidence: { level: hostile(`SEARCHLEVEL${i}`) },
      url: i === 0 ? HOSTILE_URLS.plain : HOSTILE_URLS.breakout,
      score: 90,
    })),
    content: [0, 1].map((i) => ({
      id: `faq-${i}`,
      type: hostile(`CONTENTTYPE${i}`),
      title: hostile(`CONTENTTITLE${i}`),
      excerpt: hostile(`EXCERPT${i}`),
      url: i === 0 ? HOSTILE_URLS.plain : HOSTILE_URLS.c1,
      peptide: { id: `pep-${i}`, name: hostile(`CONTENTPEP${i}`) },
    })),
  };
}

export const CATEGORIES: Item[] = [0, 1].map((i) => ({
  id: `cat-${i}`,
  name: hostile(`CATNAME${i}`),
  url: i === 0 ? HOSTILE_URLS.plain : HOSTILE_URLS.bell,
  peptide_count: 1,
  peptides: [{ id: `pep-${i}`, name: hostile(`CATPEP${i}`), url: HOSTILE_URLS.breakout }],
}));

export const AREAS: Item[] = [0, 1].map((i) => ({
  id: `area-${i}`,
  name: hostile(`AREANAME${i}`),
  description: hostile(`AREADESC${i}`),
  url: i === 0 ? HOSTILE_URLS.plain : HOSTILE_URLS.bidi,
  peptide_count: 1,
  study_count: 7,
  peptides: [{ id: `pep-${i}`, name: hostile(`AREAPEP${i}`), url: HOSTILE_URLS.breakout, study_count: 7 }],
}));

/** Studies a peptide cites, with the finding summary the sandbox adds. */
export const PEPTIDE_STUDIES: Item[] = [0, 1, 2].map((i) => ({
  ...studyEntry(i, Object.values(HOSTILE_URLS)[i]),
  finding_summary: hostile(`PSFINDING${i}`),
}));

const list = (items: Item[], meta: Item = {}) =>
  envelope(items, { pagination: { next_cursor: null, has_more: false }, meta });
const DISCLOSED = { affiliate_disclosure: DISCLOSURE };

/**
 * Answers the routes above (any slug or vendor id); false for any other path, which the
 * hostile API then serves. Vendor, price and product routes want a key, as the API does.
 */
export function serveMore(req: RecordedRequest, res: ServerResponse): boolean {
  const p = req.path;
  const keyed = /^\/v1\/(vendors|prices|products)/.test(p);
  if (keyed && !req.headers.authorization && !req.headers["x-api-key"]) {
    sendJson(res, 401, { error: { code: "missing_api_key", message: "key needed", request_id: "r" } });
    return true;
  }
  let body: unknown;
  if (/^\/v1\/peptides\/[^/]+\/research$/.test(p)) body = envelope(researchSummary());
  else if (/^\/v1\/peptides\/[^/]+\/studies$/.test(p)) body = list(PEPTIDE_STUDIES);
  else if (/^\/v1\/regulatory-status\/[^/]+$/.test(p)) body = envelope(regulatoryStatus());
  else if (/^\/v1\/vendors\/[^/]+\/shipping$/.test(p)) body = envelope(vendorShipping(), { meta: DISCLOSED });
  else if (p === "/v1/vendors/compare")
    body = envelope(vendorComparison((req.query.get("ids") ?? "").split(",")), { meta: DISCLOSED });
  else if (p === "/v1/prices") body = list(OFFERS, DISCLOSED);
  else if (p === "/v1/products") body = list(PRODUCTS, DISCLOSED);
  else if (p === "/v1/search") body = envelope(searchResult());
  else if (p === "/v1/categories") body = list(CATEGORIES);
  else if (p === "/v1/research-areas") body = list(AREAS);
  else return false;
  sendJson(res, 200, body);
  return true;
}
