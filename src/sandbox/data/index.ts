/**
 * Builds the whole synthetic data set from a seed and a scale, with the lookup tables
 * and precomputed orders the handlers need. Generation is one pass over arrays, so scale
 * 100 (about 30,000 studies) builds in well under a few seconds.
 */
import { CATEGORIES } from "../../api/enums.js";
import { DATA_NOW_MS } from "./data-now.js";
import { generateContent } from "./content.js";
import { compareDecimal } from "./decimal.js";
import { RESEARCH_AREAS, slugify } from "./word-stock.js";
import { FORMS, generateOffers, isListed } from "./offers.js";
import { generatePeptides } from "./peptide-generator.js";
import { generateStudies } from "./study-generator.js";
import type { CategoryId, ContentItem, Offer, Peptide, ProductForm, ResearchArea, Study } from "./records.js";
import { generateVendors, type VendorWithCurrencies } from "./vendor-generator.js";

export interface AreaEntry {
  area: ResearchArea;
  peptideIds: string[];
  studyCount: number;
}

export interface Product {
  id: string;
  peptideId: string;
  form: ProductForm;
  name: string;
  /** Per currency, in currency-code order: the lowest and highest listed price strings. */
  ranges: { currency: string; min: string; max: string; offerCount: number }[];
  vendorCount: number;
}

export interface Dataset {
  seed: number;
  scale: number;
  /** Sorted by name. */
  peptides: Peptide[];
  peptideById: Map<string, Peptide>;
  studies: Study[];
  studyById: Map<string, Study>;
  /** Precomputed total orders of every study, one per `sort` value. */
  studyOrder: { newest: Study[]; oldest: Study[]; title: Study[] };
  vendors: VendorWithCurrencies[];
  vendorById: Map<string, VendorWithCurrencies>;
  /** Every offer, listed or not. */
  offers: Offer[];
  /** Listed offers in API order (peptide name, form, currency, price, id). */
  listedOffers: Offer[];
  /** Matched, fresh offers per vendor (the vendor's "live listings"), shareable or not. */
  liveOffersByVendor: Map<string, Offer[]>;
  /** Most-studied first. */
  areas: AreaEntry[];
  categories: { id: CategoryId; peptideIds: string[] }[];
  content: ContentItem[];
  products: Product[];
  resolvePeptide(slug: string): Peptide | undefined;
  resolveStudy(id: string): Study | undefined;
  resolveVendor(idOrSlug: string): VendorWithCurrencies | undefined;
}

/** Counts at scale 1; `scale` multiplies each (at least enough to cover every enum value). */
export const BASE_COUNTS = { peptides: 40, studies: 300, vendors: 25, offers: 200 } as const;

const compact = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Looks a peptide up by id, name, synonym or alias: exactly (case aside), else ignoring punctuation when that is unambiguous. */
function peptideResolver(peptides: readonly Peptide[]): (slug: string) => Peptide | undefined {
  const exact = new Map<string, Peptide>();
  const loose = new Map<string, Peptide | null>();
  for (const p of peptides) {
    for (const key of [p.id, p.name, ...p.synonyms, ...p.aliases]) {
      if (!exact.has(key.toLowerCase())) exact.set(key.toLowerCase(), p);
      const c = compact(key);
      loose.set(c, loose.has(c) && loose.get(c) !== p ? null : p);
    }
  }
  return (slug) => {
    const key = slug.trim().toLowerCase();
    return exact.get(key) ?? loose.get(compact(key)) ?? undefined;
  };
}

/** Studies by each id form (lower case), and in each sort order of `GET /studies`. */
function studyIndexes(studies: readonly Study[]) {
  const studyKeys = new Map<string, Study>();
  for (const s of studies) {
    if (s.pmid) studyKeys.set(`pmid-${s.pmid}`, s);
    if (s.doi) studyKeys.set(`doi-${s.doi.replaceAll("/", "--")}`.toLowerCase(), s);
    if (s.nctId) studyKeys.set(`nct-${s.nctId}`.toLowerCase(), s);
  }
  const titles = new Map(studies.map((s) => [s, s.title.toLowerCase()]));
  const titleKey = (s: Study) => titles.get(s) as string;
  const newest = studies
    .slice()
    .sort((a, b) => b.publicationYear - a.publicationYear || byText(titleKey(a), titleKey(b)) || byText(a.id, b.id));
  const oldest = studies
    .slice()
    .sort((a, b) => a.publicationYear - b.publicationYear || byText(titleKey(a), titleKey(b)) || byText(a.id, b.id));
  const title = studies.slice().sort((a, b) => byText(titleKey(a), titleKey(b)) || byText(a.id, b.id));
  return { studyKeys, studyOrder: { newest, oldest, title } };
}

/**
 * The offers `/prices` lists, in its order (peptide, form, currency, price), and each
 * vendor's live offers: matched to a profile and seen lately, whether or not the vendor's
 * prices may be shared.
 */
function offerIndexes(
  offers: readonly Offer[],
  vendors: readonly VendorWithCurrencies[],
  vendorById: ReadonlyMap<string, VendorWithCurrencies>,
  peptides: readonly Peptide[],
) {
  const liveOffersByVendor = new Map<string, Offer[]>(vendors.map((v) => [v.id, []]));
  const listedOffers: Offer[] = [];
  for (const o of offers) {
    const v = vendorById.get(o.vendorId) as VendorWithCurrencies;
    const fresh = o.peptideId !== null && isListed(o, { pricesShareable: true }, DATA_NOW_MS);
    if (fresh) liveOffersByVendor.get(v.id)?.push(o);
    if (isListed(o, v, DATA_NOW_MS)) listedOffers.push(o);
  }
  const lowerNames = new Map(peptides.map((p) => [p.id, p.name.toLowerCase()]));
  const pName = (o: Offer) => lowerNames.get(o.peptideId ?? "") ?? "";
  listedOffers.sort(
    (a, b) =>
      byText(pName(a), pName(b)) ||
      byText(a.form, b.form) ||
      byText(a.currency, b.currency) ||
      compareDecimal(a.price, b.price) ||
      byText(a.id, b.id),
  );
  return { liveOffersByVendor, listedOffers };
}

/** The research areas, each with its peptides most studied first, the areas most studied first. */
function researchAreas(peptides: readonly Peptide[]): { areaList: ResearchArea[]; areas: AreaEntry[] } {
  const areaList: ResearchArea[] = RESEARCH_AREAS.map((a) => ({
    id: slugify(a.name),
    name: a.name,
    description: `Studies of ${a.name.toLowerCase()} (synthetic research area).`,
  }));
  const areas: AreaEntry[] = areaList
    .map((area) => {
      const ps = peptides.filter((p) => p.researchTopics.includes(area.name));
      ps.sort((a, b) => b.studyIds.length - a.studyIds.length || byText(a.name.toLowerCase(), b.name.toLowerCase()));
      return { area, peptideIds: ps.map((p) => p.id), studyCount: ps.reduce((s, p) => s + p.studyIds.length, 0) };
    })
    .sort((a, b) => b.studyCount - a.studyCount || byText(a.area.name, b.area.name));
  return { areaList, areas };
}

/** Products (a peptide in one form) from the listed offers, with a price range per currency. */
function productsOf(listedOffers: readonly Offer[], peptideById: ReadonlyMap<string, Peptide>): Product[] {
  const productMap = new Map<string, { peptideId: string; form: ProductForm; offers: Offer[] }>();
  for (const o of listedOffers) {
    const key = `${o.peptideId}|${o.form}`;
    const entry = productMap.get(key) ?? { peptideId: o.peptideId as string, form: o.form, offers: [] };
    entry.offers.push(o);
    productMap.set(key, entry);
  }
  const products: Product[] = [...productMap.values()].map((e) => {
    const p = peptideById.get(e.peptideId) as Peptide;
    const byCurrency = new Map<string, Offer[]>();
    for (const o of e.offers) {
      const list = byCurrency.get(o.currency);
      if (list) list.push(o);
      else byCurrency.set(o.currency, [o]);
    }
    const ranges = [...byCurrency.entries()]
      .sort(([a], [b]) => byText(a, b))
      .map(([currency, os]) => {
        const sorted = os.map((o) => o.price).sort(compareDecimal);
        return { currency, min: sorted[0] as string, max: sorted[sorted.length - 1] as string, offerCount: os.length };
      });
    const label = FORMS.find((f) => f.id === e.form)?.label ?? e.form;
    return {
      id: `prd_${p.id}_${e.form}`,
      peptideId: p.id,
      form: e.form,
      name: `${p.name} ${label}`,
      ranges,
      vendorCount: new Set(e.offers.map((o) => o.vendorId)).size,
    };
  });
  products.sort((a, b) => byText(a.name.toLowerCase(), b.name.toLowerCase()) || byText(a.id, b.id));
  return products;
}

export function buildDataset(seed = 1, scale = 1): Dataset {
  if (!Number.isFinite(scale) || scale <= 0) throw new RangeError("scale must be a positive number");
  const n = (base: number, min: number) => Math.max(min, Math.round(base * scale));
  const nowYear = new Date(DATA_NOW_MS).getUTCFullYear();

  const generated = generatePeptides(seed, n(BASE_COUNTS.peptides, 8));
  const studies = generateStudies(seed, n(BASE_COUNTS.studies, 60), generated, nowYear);
  const vendors = generateVendors(seed, n(BASE_COUNTS.vendors, 12));
  const peptides = generated
    .slice()
    .sort((a, b) => byText(a.name.toLowerCase(), b.name.toLowerCase()) || byText(a.id, b.id));
  const offers = generateOffers(seed, n(BASE_COUNTS.offers, 40), vendors, peptides);

  const peptideById = new Map(peptides.map((p) => [p.id, p]));
  const studyById = new Map(studies.map((s) => [s.id, s]));
  const { studyKeys, studyOrder } = studyIndexes(studies);
  const vendorById = new Map<string, VendorWithCurrencies>();
  for (const v of vendors) {
    vendorById.set(v.id, v);
    vendorById.set(v.slug, v);
  }
  const { liveOffersByVendor, listedOffers } = offerIndexes(offers, vendors, vendorById, peptides);
  const { areaList, areas } = researchAreas(peptides);
  const categories = CATEGORIES.map((id) => ({
    id,
    peptideIds: peptides.filter((p) => p.categories.includes(id)).map((p) => p.id),
  }));
  const products = productsOf(listedOffers, peptideById);

  return {
    seed,
    scale,
    peptides,
    peptideById,
    studies,
    studyById,
    studyOrder,
    vendors,
    vendorById,
    offers,
    listedOffers,
    liveOffersByVendor,
    areas,
    categories,
    content: generateContent(peptides, areaList),
    products,
    resolvePeptide: peptideResolver(peptides),
    resolveStudy(id) {
      const key = id.trim().toLowerCase();
      return studyKeys.get(key);
    },
    resolveVendor(idOrSlug) {
      const key = idOrSlug.trim().toLowerCase();
      return vendorById.get(key);
    },
  };
}
