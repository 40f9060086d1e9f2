/**
 * What a card says, before how it is laid out: each known resource is reshaped so that
 * every fact appears once and reads as a sentence where the API spreads it over keys.
 * The same names under several keys (`also_known_as`, `aliases`, `synonyms`) become one
 * list, a study detail's `cited_by` ids and `citing_peptides` one list of peptides, a
 * vendor's `rating` and `reviews` one line, a location with its source one line. Only
 * shapes that are recognised are changed; anything else passes through untouched, so a
 * field the API adds is still shown by the card writer.
 */
import { EVIDENCE_LEVEL_LABELS, labelOf } from "./labels.js";
import type { Resource } from "../core/command.js";
import { sourceText } from "./cells.js";
import { flattenStudyDetail, humanize, isPlainObject, type Plain } from "./value-paths.js";

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A list of strings, or undefined when the value is anything else. */
function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((e) => typeof e === "string") ? (v as string[]) : undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Drops `keys` of `obj` whose values equal those of `other` under the same keys. */
function dropRepeated(obj: Plain, other: Plain, keys: readonly string[]): Plain {
  const out = { ...obj };
  for (const k of keys) if (k in out && k in other && sameValue(out[k], other[k])) delete out[k];
  return out;
}

/** One list of other names: `also_known_as`, then `aliases` and `synonyms` that add any. */
function mergeNames(d: Plain): Plain {
  const lists = ["also_known_as", "aliases", "synonyms"].filter((k) => strings(d[k]) !== undefined);
  if (lists.length < 2) return d;
  const out: Plain = {};
  const all = new Set<string>();
  for (const k of lists) for (const n of strings(d[k]) ?? []) all.add(n);
  for (const [k, v] of Object.entries(d)) {
    if (!lists.includes(k)) out[k] = v;
    else if (k === lists[0]) out[k] = [...all];
  }
  return out;
}

/** `{ level, label, human_studies, ... }` -> the level as one line, the counts as another. */
function evidenceLines(evidence: unknown): { level?: string; counts?: string; rest: Plain } | undefined {
  if (!isPlainObject(evidence)) return undefined;
  const rest: Plain = { ...evidence };
  let level: string | undefined;
  const code = str(evidence.level);
  const label = str(evidence.label);
  if (code !== undefined || label !== undefined) {
    // The level as every table and card says it (labels.ts), the API's label when pep has none.
    level =
      code !== undefined && code in EVIDENCE_LEVEL_LABELS ? labelOf(EVIDENCE_LEVEL_LABELS, code) : (label ?? code);
    delete rest.level;
    delete rest.label;
  }
  const human = num(evidence.human_studies);
  const pre = num(evidence.preclinical_studies);
  const secondary = num(evidence.secondary_reports);
  let counts: string | undefined;
  if (human !== undefined && pre !== undefined) {
    const parts = [
      plural(human, "human study", "human studies"),
      plural(pre, "preclinical study", "preclinical studies"),
    ];
    if (secondary !== undefined) parts.push(plural(secondary, "secondary report"));
    counts = parts.join(", ");
    delete rest.human_studies;
    delete rest.preclinical_studies;
    if (secondary !== undefined) delete rest.secondary_reports;
  }
  return { level, counts, rest };
}

/** A full peptide profile. */
function shapeProfile(d: Plain): Plain {
  const out = mergeNames(d);
  const ev = evidenceLines(out.evidence);
  if (ev) {
    if (ev.level !== undefined) out.evidence_level = ev.level;
    if (ev.counts !== undefined) out.studies_cited = ev.counts;
    // The per-class blocks become sections of their own (see the layout).
    for (const k of ["human", "preclinical", "secondary"]) {
      if (k in ev.rest) {
        out[`${k}_evidence`] = ev.rest[k];
        delete ev.rest[k];
      }
    }
    if (Object.keys(ev.rest).length > 0) out.evidence = ev.rest;
    else delete out.evidence;
  }
  if (isPlainObject(out.regulatory)) {
    out.regulatory = dropRepeated(out.regulatory, out, ["regulatory_status", "fda_status", "wada_status"]);
    // "Reviewed at" of the regulatory record is the profile's review date when they agree.
    const reg = out.regulatory as Plain;
    if (sameValue(reg.reviewed_at, out.content_reviewed_at)) delete reg.reviewed_at;
  }
  return out;
}

/** Mechanisms that share one summary: the targets listed once, the summary said once. */
function shapeMechanisms(v: unknown): unknown {
  if (!Array.isArray(v) || v.length < 2 || !v.every(isPlainObject)) return v;
  const keys = Object.keys(v[0] as Plain);
  const sameShape = v.every((m) => sameValue(Object.keys(m as Plain), keys));
  if (!sameShape || !keys.includes("summary") || !keys.includes("target") || keys.length !== 2) return v;
  const summary = (v[0] as Plain).summary;
  if (!v.every((m) => sameValue((m as Plain).summary, summary))) return v;
  return { targets: v.map((m) => (m as Plain).target), summary };
}

/** A research summary. */
function shapeResearch(d: Plain): Plain {
  const out = { ...d };
  if ("mechanisms" in out) out.mechanisms = shapeMechanisms(out.mechanisms);
  return out;
}

const PEPTIDE_BRIEF_SKIP = new Set(["name", "id", "url", "api_url"]);

/** A peptide's id: its own, its slug, or the last part of its page's address. */
function peptideId(p: Plain): string | undefined {
  const own = str(p.id) ?? str(p.slug);
  if (own !== undefined) return own;
  const url = str(p.url);
  const last = url
    ?.replace(/[?#].*$/, "")
    .replace(/\/+$/, "")
    .split("/")
    .pop();
  if (last === undefined || last === "" || last.includes(":")) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** A citing peptide as one line: "Name (id): Evidence label". */
function peptideBrief(p: Plain): string | undefined {
  const name = str(p.name);
  const id = peptideId(p);
  if (name === undefined && id === undefined) return undefined;
  let text = name !== undefined && id !== undefined && name !== id ? `${name} (${id})` : (name ?? id ?? "");
  const ev = evidenceLines(p.evidence);
  if (ev?.level !== undefined) text += `: ${ev.level}`;
  return text;
}

/** A study detail: identifiers once, the citing peptides once (with their names). */
function shapeStudy(d: Plain): Plain {
  const out = { ...d };
  if (str(out.evidence_classification_label) !== undefined && "evidence_classification" in out) {
    out.evidence_classification = out.evidence_classification_label;
    delete out.evidence_classification_label;
  }
  const citingKey = ["citing_peptides", "citing_profiles", "peptides", "profiles"].find(
    (k) => Array.isArray(out[k]) && (out[k] as unknown[]).every(isPlainObject),
  );
  const ids = strings(out.cited_by);
  if (citingKey !== undefined) {
    const citing = out[citingKey] as Plain[];
    // Each peptide's own facts belong to its profile; here it is named, with its evidence.
    const briefs = citing.map((p) => {
      const brief = peptideBrief(p);
      const extra = Object.keys(p).some((k) => !PEPTIDE_BRIEF_SKIP.has(k));
      return brief ?? (extra ? p : JSON.stringify(p));
    });
    const named = new Set(citing.map(peptideId).filter((x) => x !== undefined));
    const onlyIds = (ids ?? []).filter((id) => !named.has(id));
    delete out[citingKey];
    out.cited_by = [...briefs, ...onlyIds];
  }
  return out;
}

/** `{ country, region, source }` -> `{ value: "NL, Europe", source }`, read as one sourced line. */
function shapeLocation(loc: unknown): unknown {
  if (!isPlainObject(loc)) return loc;
  const parts = ["city", "region", "country"].filter((k) => str(loc[k]) !== undefined);
  const others = Object.keys(loc).filter((k) => !parts.includes(k) && k !== "source");
  if (parts.length === 0 || others.length > 0) return loc;
  const text = ["city", "country", "region"]
    .map((k) => str(loc[k]))
    .filter((x) => x !== undefined)
    .join(", ");
  return "source" in loc ? { value: text, source: loc.source } : text;
}

/** Rating and reviews as one line: "4.5 average from 309 reviews (168 verified, 141 not)". */
function ratingText(r: Plain): string | undefined {
  const avg = num(r.average) ?? (typeof r.average === "string" ? r.average : undefined);
  const count = num(r.count);
  if (avg === undefined && count === undefined) return undefined;
  const verified = num(r.verified_count) ?? num(r.verified_reviews);
  const unverified = num(r.unverified_count);
  let text = avg !== undefined ? `${avg} average` : "no average";
  if (count !== undefined) text += ` from ${plural(count, "review")}`;
  const detail: string[] = [];
  if (verified !== undefined) detail.push(`${verified} verified`);
  if (unverified !== undefined) detail.push(`${unverified} not verified`);
  if (detail.length > 0) text += ` (${detail.join(", ")})`;
  return text;
}

const RATING_KEYS = new Set(["average", "count", "verified_count", "verified_reviews", "unverified_count", "source"]);

function shapeRating(d: Plain): Plain {
  const rating = isPlainObject(d.rating) ? d.rating : undefined;
  const reviews = isPlainObject(d.reviews) ? d.reviews : undefined;
  const richer = reviews ?? rating;
  if (!richer || Object.keys(richer).some((k) => !RATING_KEYS.has(k))) return d;
  // Reviews repeat the rating's figures and add to them; the rating alone is used only
  // when no review summary came.
  if (rating && reviews && !["average", "count"].every((k) => sameValue(rating[k], reviews[k]))) return d;
  const text = ratingText(richer);
  if (text === undefined) return d;
  const out = { ...d };
  delete out.reviews;
  out.rating = "source" in richer ? { value: text, source: richer.source } : text;
  return out;
}

/** A vendor's directory entry or detail. */
function shapeVendor(d: Plain): Plain {
  let out: Plain = { ...d };
  if ("location" in out) {
    const loc = out.location;
    out.location = shapeLocation(loc);
    if (isPlainObject(loc)) out = dropRepeated(out, loc, ["country", "region", "city"]);
  } else if (str(out.country) !== undefined && !isPlainObject(out.region)) {
    out.location = shapeLocation({ country: out.country, ...(str(out.region) ? { region: out.region } : {}) });
    delete out.country;
    delete out.region;
  }
  out = shapeRating(out);
  if (isPlainObject(out.catalog)) out.catalog = dropRepeated(out.catalog, out, ["product_categories"]);
  return out;
}

/** `{ value, source }` and nothing else. */
const isSourced = (v: unknown): v is { value: unknown; source: Plain } =>
  isPlainObject(v) && Object.keys(v).length === 2 && "value" in v && isPlainObject(v.source);

/**
 * Facts that share a source (a vendor's shipping page) say it once: each fact shows its
 * value, and a list of sources at the end names the facts each one backs.
 */
function gatherSources(d: Plain): Plain {
  const groups = new Map<string, { source: Plain; keys: string[] }>();
  for (const [k, v] of Object.entries(d)) {
    if (!isSourced(v)) continue;
    const id = JSON.stringify(v.source);
    const g = groups.get(id) ?? { source: v.source, keys: [] };
    g.keys.push(k);
    groups.set(id, g);
  }
  if (![...groups.values()].some((g) => g.keys.length > 1) || "sources" in d) return d;
  const out: Plain = {};
  for (const [k, v] of Object.entries(d)) out[k] = isSourced(v) ? v.value : v;
  out.sources = [...groups.values()].map(
    (g) => `${g.keys.map((k) => humanize(k).toLowerCase()).join(", ")}: ${sourceText(g.source)}`,
  );
  return out;
}

/** The shipping facts of one vendor: its identity first, each source said once. */
function shapeShipping(d: Plain): Plain {
  if (!isPlainObject(d.vendor)) return gatherSources(d);
  const { vendor, ...rest } = d;
  // The vendor block's own keys, at the top, with its name and page as the card's title.
  return { ...vendor, ...gatherSources(rest) };
}

/** A regulatory record: the peptide it is about first. */
function shapeRegulatory(d: Plain): Plain {
  if (!isPlainObject(d.peptide)) return d;
  const { peptide, ...rest } = d;
  const out: Plain = {};
  for (const [k, v] of Object.entries(peptide)) out[k === "id" ? "peptide_id" : `peptide_${k}`] = v;
  return { ...out, ...rest };
}

/** The data as the card should say it; non-objects and unknown resources pass through. */
export function shapeForCard(resource: Resource, data: unknown): unknown {
  if (!isPlainObject(data)) return data;
  switch (resource) {
    case "peptide-profile":
    case "peptide":
      return shapeProfile(data);
    case "research":
      return shapeResearch(data);
    case "regulatory":
      return shapeRegulatory(data);
    case "study":
    case "cited-study":
    case "study-detail":
      return shapeStudy(flattenStudyDetail(data) as Plain);
    case "vendor":
    case "vendor-detail":
      return shapeVendor(data);
    case "vendor-shipping":
      return shapeShipping(data);
    default:
      return data;
  }
}
