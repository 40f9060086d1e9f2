/**
 * Study endpoints: the de-duplicated index of cited studies and one study with the
 * summaries of the profiles citing it.
 */
import { EVIDENCE_CLASSIFICATIONS } from "../../api/enums.js";
import { paginate, pickFields, SITE_URL, type Handler } from "../request-context.js";
import type { Peptide } from "../data/records.js";
import { invalidParameter, notFound } from "../sandbox-error.js";
import { compactText } from "../fuzzy.js";
import { peptideFromSlug } from "./research-handlers.js";
import { peptideSummary, studyEntry } from "./views.js";

export const listStudies: Handler = (ctx) => {
  const q = ctx.query;
  let classes: string[] | undefined;
  if (typeof q.evidence_classification === "string") {
    classes = q.evidence_classification.split(",").map((c) => c.trim());
    const bad = classes.find((c) => !(EVIDENCE_CLASSIFICATIONS as readonly string[]).includes(c));
    if (bad !== undefined)
      throw invalidParameter(
        "evidence_classification",
        `has unknown value '${bad}'; it must be a comma-separated list of: ${EVIDENCE_CLASSIFICATIONS.join(", ")}`,
      );
  }
  const cited = typeof q.peptide === "string" ? new Set(peptideFromSlug(ctx, q.peptide).studyIds) : undefined;
  const words =
    typeof q.search === "string"
      ? q.search
          .split(/\s+/)
          .map(compactText)
          .filter((w) => w !== "")
      : [];
  const from = q.year_from as number | undefined;
  const to = q.year_to as number | undefined;
  const order = ctx.data.studyOrder[(q.sort as "newest" | "oldest" | "title" | undefined) ?? "newest"];
  const items = order.filter((s) => {
    if (cited && !cited.has(s.id)) return false;
    if (classes && !classes.includes(s.evidenceClassification)) return false;
    if (from !== undefined && s.publicationYear < from) return false;
    if (to !== undefined && s.publicationYear > to) return false;
    if (words.length > 0) {
      const t = compactText(s.title);
      if (!words.every((w) => t.includes(w))) return false;
    }
    return true;
  });
  const page = paginate(ctx, items);
  return { data: page.items.map((s) => pickFields(studyEntry(s), q.fields)), pagination: page.pagination };
};

export const getStudy: Handler = (ctx) => {
  const id = ctx.route.params.id ?? "";
  const s = ctx.data.resolveStudy(id);
  if (!s) throw notFound("study", id);
  return {
    data: {
      ...studyEntry(s),
      finding_summary: s.findingSummary,
      url: `${SITE_URL}/studies/${s.id}`,
      api_url: `${ctx.baseUrl}/studies/${encodeURIComponent(s.id)}`,
      citing_peptides: s.citedBy.map((pid) =>
        peptideSummary(ctx.data, ctx.data.peptideById.get(pid) as Peptide, ctx.baseUrl),
      ),
    },
  };
};
