/**
 * Studies whose titles and authors try to break a .bib file: unbalanced and escaped
 * braces, every BibTeX special, a title ending in a backslash, names that hold " and ",
 * commas and braces, and organisations beside people who must still be split.
 */
export const hostileStudies = [
  {
    id: "h1",
    title: "Unbalanced { opening brace in Lunplexin-19 results",
    publication_year: 2020,
    authors: ["Smith J", "World Health Organization"],
    journal: "Journal of {Broken Braces",
    doi: "10.5555/h1{x",
    pmid: "91000001",
    source_url: "https://example.test/a{b}c d",
    cited_by: ["lunplexin-19"],
  },
  {
    id: "h2",
    title: "Closing } brace and \\} escaped one: {\\{Grivvoxide-87\\}} again }}",
    publication_year: 2021,
    authors: ["van der Berg, A.", "Research and Development Group", "Jean-Luc Picard"],
    journal: "Annals of Sandbox Medicine",
    doi: "10.5555/h2",
    cited_by: ["grivvoxide-87"],
  },
  {
    id: "h3",
    title: "Specials: 100% & #1 $5 a_b ^up ~tilde \\ backslash @at and a trailing \\",
    publication_year: 2022,
    authors: [
      "Tom and Jerry, Anna",
      "Doe, {John}",
      "Centers for Disease Control and Prevention",
      "María José Sánchez López",
    ],
    journal: "R&D Letters",
    nct_id: "NCT99000077",
    cited_by: [],
  },
  {
    id: "h4",
    title: "{\\bf Bold} \\textit{TeX} commands, mRNA and GLP-1 in the Sandbox Cohort of vitamin D users",
    publication_year: 2023,
    authors: ["WHO Study Group", "Ng W", "\\Evil}{Name"],
    journal: "Sandbox Cohort Reports",
    cited_by: [{ id: "thymosin-beta-4", name: "Thymosin Beta-4" }],
  },
  {
    id: "h5",
    title: "@article{injected, title = {x}} survives as text",
    publication_year: 2024,
    authors: ["Consortium for Peptide Safety", "Smith, John, Jr."],
    journal: "Injection Journal",
    cited_by: [],
  },
] as const;

/** The authors as each format should carry them: people split, organisations whole. */
export const hostileAuthors: Record<string, ({ family: string; given?: string } | { literal: string })[]> = {
  h1: [{ family: "Smith", given: "J." }, { literal: "World Health Organization" }],
  h2: [
    { family: "van der Berg", given: "A." },
    { literal: "Research and Development Group" },
    { family: "Picard", given: "Jean-Luc" },
  ],
  h3: [
    { family: "Tom and Jerry", given: "Anna" },
    { family: "Doe", given: "{John}" },
    { literal: "Centers for Disease Control and Prevention" },
    { family: "López", given: "María José Sánchez" },
  ],
  h4: [{ literal: "WHO Study Group" }, { family: "Ng", given: "W." }, { literal: "\\Evil}{Name" }],
  h5: [{ literal: "Consortium for Peptide Safety" }, { family: "Smith", given: "John, Jr." }],
};
