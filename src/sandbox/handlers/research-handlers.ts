/**
 * Research endpoints: profiles, one profile, its studies and research summary,
 * regulatory status, categories, research areas and the combined search.
 */
import { EVIDENCE_LEVELS, LIMITS } from "../../api/enums.js";
import { paginate, pickFields, SITE_URL, type Handler, type HandlerContext } from "../request-context.js";
import type { Peptide } from "../data/records.js";
import { notFound } from "../sandbox-error.js";
import { matchScore, wordsScore, compactText } from "../fuzzy.js";
import {
  CATEGORY_LABELS,
  citedStudies,
  citedStudy,
  peptideProfile,
  peptideRef,
  peptideSummary,
  regulatoryStatus,
  studyRef,
} from "./views.js";

const byName = (a: Peptide, b: Peptide) =>
  a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0;

/** The profile a path `slug` names (id, name, synonym or alias), or 404. */
export function peptideFromSlug(ctx: HandlerContext, slug = ctx.route.params.slug ?? ""): Peptide {
  const p = ctx.data.resolvePeptide(slug);
  if (!p) throw notFound("peptide", slug);
  return p;
}

const peptideNames = (p: Peptide) => [p.name, p.id, ...p.synonyms, ...p.aliases];

export const listPeptides: Handler = (ctx) => {
  const q = ctx.query;
  const search = q.search as string | undefined;
  const area = typeof q.research_area === "string" ? compactText(q.research_area) : undefined;
  const scores = new Map<Peptide, number>();
  let items = ctx.data.peptides.filter((p) => {
    if (q.category !== undefined && !p.categories.includes(q.category as Peptide["categories"][number])) return false;
    if (q.evidence_level !== undefined && p.evidenceLevel !== q.evidence_level) return false;
    if (q.regulatory_status !== undefined && p.regulatoryStatus !== q.regulatory_status) return false;
    if (area !== undefined && !p.researchTopics.some((t) => compactText(t) === area)) return false;
    if (search !== undefined) {
      const s = matchScore(search, peptideNames(p));
      if (s === 0) return false;
      scores.set(p, s);
    }
    return true;
  });
  const sort = (q.sort as string | undefined) ?? (search !== undefined ? "relevance" : "name");
  items = items.slice();
  if (sort === "relevance" && search !== undefined)
    items.sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || byName(a, b));
  else if (sort === "-name") items.sort((a, b) => byName(b, a));
  else if (sort === "evidence")
    items.sort(
      (a, b) => EVIDENCE_LEVELS.indexOf(a.evidenceLevel) - EVIDENCE_LEVELS.indexOf(b.evidenceLevel) || byName(a, b),
    );
  else if (sort === "updated")
    items.sort((a, b) =>
      a.contentReviewedAt < b.contentReviewedAt ? 1 : a.contentReviewedAt > b.contentReviewedAt ? -1 : byName(a, b),
    );
  else items.sort(byName);
  const page = paginate(ctx, items);
  return {
    data: page.items.map((p) => pickFields(peptideSummary(ctx.data, p, ctx.baseUrl), q.fields)),
    pagination: page.pagination,
  };
};

export const getPeptide: Handler = (ctx) => ({ data: peptideProfile(ctx.data, peptideFromSlug(ctx), ctx.baseUrl) });

export const peptideStudies: Handler = (ctx) => {
  const p = peptideFromSlug(ctx);
  const studies = citedStudies(ctx.data, p).slice(0, LIMITS.peptideStudiesMax);
  const page = paginate(ctx, studies);
  return { data: page.items.map((s) => citedStudy(s, ctx.baseUrl)), pagination: page.pagination };
};

export const peptideResearch: Handler = (ctx) => {
  const p = peptideFromSlug(ctx);
  const studies = citedStudies(ctx.data, p);
  const of = (...c: string[]) => studies.filter((s) => c.includes(s.evidenceClassification)).map(studyRef);
  const trials = of("human_controlled_trial");
  const humanStudies = of("human_study", "regulatory_label");
  const animal = of("animal_or_lab");
  const inVitro = of("in_vitro");
  return {
    data: {
      peptide: peptideRef(p),
      evidence_level: p.evidenceLevel,
      mechanisms: p.mechanism.targets.map((target) => ({ target, summary: p.mechanism.summary })),
      clinical_evidence: {
        summary:
          trials.length + humanStudies.length > 0
            ? `${trials.length} controlled trial(s) and ${humanStudies.length} other human source(s) cited.`
            : "not_documented",
        human_trials: trials,
        other_human_studies: humanStudies,
      },
      preclinical_evidence: {
        summary:
          animal.length + inVitro.length > 0
            ? "Animal and laboratory findings; they may not apply to humans."
            : "not_documented",
        animal_studies: animal,
        in_vitro_studies: inVitro,
      },
      secondary_reports: of("secondary_report"),
      safety: {
        summary: p.safety.summary,
        reported_adverse_events: p.safety.reportedAdverseEvents,
        known_interactions: p.safety.knownInteractions,
      },
      limitations: p.limitations,
      research_gaps: p.researchGaps,
      references: studies.map(studyRef),
      reviewed_at: p.contentReviewedAt,
    },
  };
};

export const getRegulatoryStatus: Handler = (ctx) => {
  const p = peptideFromSlug(ctx);
  return { data: { peptide: peptideRef(p), ...regulatoryStatus(p) } };
};

export const listCategories: Handler = (ctx) => {
  const items = ctx.data.categories.map((c) => ({
    id: c.id,
    name: CATEGORY_LABELS[c.id] ?? c.id,
    url: `${SITE_URL}/categories/${c.id}`,
    peptide_count: c.peptideIds.length,
    peptides: c.peptideIds.map((id) => ({
      ...peptideRef(ctx.data.peptideById.get(id) as Peptide),
      api_url: `${ctx.baseUrl}/peptides/${id}`,
    })),
  }));
  const page = paginate(ctx, items);
  return { data: page.items, pagination: page.pagination };
};

export const listResearchAreas: Handler = (ctx) => {
  const search = typeof ctx.query.search === "string" ? ctx.query.search.toLowerCase() : undefined;
  const areas = ctx.data.areas.filter(
    (a) => search === undefined || a.area.name.toLowerCase().includes(search) || a.area.id.includes(search),
  );
  const page = paginate(ctx, areas);
  return {
    data: page.items.map((a) => ({
      id: a.area.id,
      name: a.area.name,
      description: a.area.description,
      url: `${SITE_URL}/research-areas/${a.area.id}`,
      peptide_count: a.peptideIds.length,
      study_count: a.studyCount,
      peptides: a.peptideIds.map((id) => {
        const p = ctx.data.peptideById.get(id) as Peptide;
        return { ...peptideRef(p), study_count: p.studyIds.length };
      }),
    })),
    pagination: page.pagination,
  };
};

export const search: Handler = (ctx) => {
  const q = ctx.query.q as string;
  const types =
    typeof ctx.query.types === "string" ? ctx.query.types.split(",").map((t) => t.trim()) : ["peptides", "content"];
  const limit = typeof ctx.query.limit === "number" ? ctx.query.limit : LIMITS.searchLimitDefault;
  const data: { peptides: unknown[]; content: unknown[] } = { peptides: [], content: [] };
  if (types.includes("peptides")) {
    data.peptides = ctx.data.peptides
      .map((p) => ({
        p,
        score: Math.max(matchScore(q, peptideNames(p)), wordsScore(q, [p.summary, ...p.researchTopics]) * 0.5),
      }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || byName(a.p, b.p))
      .slice(0, limit)
      .map(({ p, score }) => {
        const s = peptideSummary(ctx.data, p, ctx.baseUrl);
        return {
          id: s.id,
          name: s.name,
          also_known_as: s.also_known_as,
          categories: s.categories,
          summary: s.summary,
          evidence: s.evidence,
          url: s.url,
          api_url: s.api_url,
          score: Math.round(score),
        };
      });
  }
  if (types.includes("content")) {
    data.content = ctx.data.content
      .filter((c) => c.topic === "education")
      .map((c) => ({ c, score: Math.max(wordsScore(q, [c.title]), wordsScore(q, [c.title, c.excerpt]) * 0.8) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || (a.c.title < b.c.title ? -1 : a.c.title > b.c.title ? 1 : 0))
      .slice(0, limit)
      .map(({ c, score }) => {
        const p = c.peptideId ? ctx.data.peptideById.get(c.peptideId) : undefined;
        return {
          id: c.id,
          type: c.type,
          title: c.title,
          excerpt: c.excerpt,
          url: c.url,
          peptide: p ? peptideRef(p) : null,
          score: Math.round(score),
        };
      });
  }
  return { data };
};
