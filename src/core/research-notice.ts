/**
 * The research-only notice (docs/api.md#content-rules), one text wherever it is shown: under the
 * help of research commands, in the man pages, and under cards about research.
 */
export const RESEARCH_NOTICE =
  "Research and education only: not medical advice, and not a recommendation to buy or use any substance.";
