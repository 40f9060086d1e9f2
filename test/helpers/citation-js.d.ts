/** The little of @citation-js (a dev dependency without types) that tests use to read citations back. */
declare module "@citation-js/core" {
  export interface CslName {
    given?: string;
    family?: string;
    literal?: string;
  }
  export interface CslItem {
    id?: string;
    type?: string;
    title?: string;
    author?: CslName[];
    DOI?: string;
    issued?: { "date-parts"?: number[][] };
    [key: string]: unknown;
  }
  export class Cite {
    data: CslItem[];
    static async(input: string, options?: { forceType?: string }): Promise<Cite>;
  }
}
declare module "@citation-js/plugin-bibtex";
declare module "@citation-js/plugin-ris";
