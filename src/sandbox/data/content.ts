/**
 * Educational content searched by `/search`: the site FAQ, per-profile FAQs, articles
 * and free courses. Dosing and commerce pages exist in the data (as on the real site) so
 * the search exclusion can be seen working; they hold no dose figures.
 */
import type { ContentItem, Peptide, ResearchArea } from "./records.js";

const SITE = "https://research.example";

const SITE_FAQ: [string, string][] = [
  [
    "What does an evidence level mean?",
    "Evidence levels summarise the strongest kind of source cited for a profile, from regulatory approval to insufficient evidence.",
  ],
  [
    "How are studies classified?",
    "Each cited source is classified as a regulatory label, controlled human trial, human study, secondary report, animal or lab work, or in vitro work.",
  ],
  ["What does not documented mean?", "A field marked not documented has no reviewed source yet; it is not a value."],
  [
    "Is this site medical advice?",
    "No. The content is for research and education only and is not a recommendation to use any substance.",
  ],
  [
    "How often are profiles reviewed?",
    "Editors review each profile periodically; the review date is shown on every profile.",
  ],
  [
    "Why are human and preclinical evidence kept apart?",
    "Animal and laboratory findings often do not carry over to humans, so they are reported separately.",
  ],
  [
    "How are vendor ratings calculated?",
    "Ratings come from published reviews; verified reviews, whose receipts a moderator checked, are counted separately.",
  ],
  [
    "What is an affiliate link?",
    "Some links to vendors may earn the site a commission; commissions never change which results are shown or their order.",
  ],
];

const COURSES: [string, string][] = [
  [
    "Evidence literacy: reading a study record",
    "A free course on study designs, evidence classifications and what each can and cannot show.",
  ],
  [
    "From animal model to human trial",
    "A free course on why preclinical findings need human confirmation, with worked synthetic examples.",
  ],
  [
    "Understanding regulatory status",
    "A free course on approval, investigational and withdrawn statuses and what they mean for research.",
  ],
];

const GENERAL_ARTICLES: [string, string][] = [
  [
    "Why small trials mislead",
    "Small studies can overstate effects; this article explains regression to the mean and publication bias.",
  ],
  [
    "Secondary reports and how to weigh them",
    "Reviews and case reports summarise earlier work; they are not new primary evidence.",
  ],
  ["Placebo control explained", "How placebo-controlled designs separate an effect from expectation and chance."],
];

/** Pages search never returns. Their text is deliberately free of any figures. */
const EXCLUDED: { title: string; excerpt: string; topic: "dosing" | "commerce"; path: string }[] = [
  {
    title: "Dosing questions",
    excerpt: "Withheld: dosing topics are outside the educational scope of search.",
    topic: "dosing",
    path: "/withheld/dosing-questions",
  },
  {
    title: "Protocol planning guide",
    excerpt: "Withheld: protocol and regimen topics are outside the educational scope of search.",
    topic: "dosing",
    path: "/withheld/protocol-guide",
  },
  {
    title: "Where to buy: vendor price guide",
    excerpt: "Commerce page: vendor prices and discounts, withheld from search.",
    topic: "commerce",
    path: "/withheld/price-guide",
  },
  {
    title: "Discount codes and vendor deals",
    excerpt: "Commerce page: discount codes, withheld from search.",
    topic: "commerce",
    path: "/withheld/deals",
  },
];

export function generateContent(peptides: Peptide[], areas: ResearchArea[]): ContentItem[] {
  const out: ContentItem[] = [];
  SITE_FAQ.forEach(([title, excerpt], i) =>
    out.push({
      id: `faq-${i + 1}`,
      type: "site_faq",
      title,
      excerpt,
      url: `${SITE}/faq#q${i + 1}`,
      peptideId: null,
      topic: "education",
    }),
  );
  for (const p of peptides) {
    out.push({
      id: `faq-${p.id}-research`,
      type: "peptide_faq",
      title: `What has ${p.name} been studied for?`,
      excerpt: `${p.name} has been studied for ${p.researchTopics.map((t) => t.toLowerCase()).join(", ")}.`,
      url: `${SITE}/peptides/${p.id}#faq-research`,
      peptideId: p.id,
      topic: "education",
    });
    out.push({
      id: `faq-${p.id}-safety`,
      type: "peptide_faq",
      title: `What is known about the safety of ${p.name}?`,
      excerpt: `The safety record of ${p.name} is summarised from its cited sources; long-term safety is not established.`,
      url: `${SITE}/peptides/${p.id}#faq-safety`,
      peptideId: p.id,
      topic: "education",
    });
  }
  for (const a of areas) {
    out.push({
      id: `article-${a.id}`,
      type: "article",
      title: `Research overview: ${a.name}`,
      excerpt: `What the cited studies say about ${a.name.toLowerCase()}, and where the evidence is thin.`,
      url: `${SITE}/learn/articles/${a.id}`,
      peptideId: null,
      topic: "education",
    });
  }
  GENERAL_ARTICLES.forEach(([title, excerpt], i) =>
    out.push({
      id: `article-general-${i + 1}`,
      type: "article",
      title,
      excerpt,
      url: `${SITE}/learn/articles/general-${i + 1}`,
      peptideId: null,
      topic: "education",
    }),
  );
  COURSES.forEach(([title, excerpt], i) =>
    out.push({
      id: `course-${i + 1}`,
      type: "course",
      title,
      excerpt,
      url: `${SITE}/learn/courses/${i + 1}`,
      peptideId: null,
      topic: "education",
    }),
  );
  EXCLUDED.forEach((x, i) =>
    out.push({
      id: `withheld-${i + 1}`,
      type: "article",
      title: x.title,
      excerpt: x.excerpt,
      url: `${SITE}${x.path}`,
      peptideId: null,
      topic: x.topic,
    }),
  );
  return out;
}
