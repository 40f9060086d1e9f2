// citation.js ships no type declarations; the tests use one function of it.
declare module "@citation-js/core" {
  export const plugins: {
    input: {
      chain(data: string, options?: { forceType?: string; generateGraph?: boolean }): Record<string, unknown>[];
    };
  };
}
declare module "@citation-js/plugin-bibtex";
declare module "@citation-js/plugin-ris";
