/**
 * Which requests the library answers, and how (docs/offline.md): each list path's
 * resource, the filters it reproduces exactly (each a test on the item as the API sent
 * it, or the stored peptide -> study link), and the one order it keeps, the API's
 * default. Anything else a request asks for is refused by the client; the command line
 * refuses the flags that would ask it before anything runs (`refusals.ts`).
 */
import type { DetailKind, LibraryResource } from "./reader.js";

/** An item as parsed from its stored text. */
export type Item = Record<string, unknown>;

/** How a parameter's value turns into a filter. */
export type ParamRule =
  /** The item's field at `path` equals the value. */
  | { kind: "equals"; path: readonly string[] }
  /** The item's array at `path` holds the value. */
  | { kind: "holds"; path: readonly string[] }
  /** The item's field at `path` is one of the comma-separated values. */
  | { kind: "one-of"; path: readonly string[] }
  /** The item's number at `path` is at least / at most the value (a missing one is left out). */
  | { kind: "at-least" | "at-most"; path: readonly string[] }
  /** A peptide (id, name or alias), resolved in the library: its cited studies, or items whose `path` is its id. */
  | { kind: "peptide"; path?: readonly string[] }
  /** The API's default order, the one the library keeps: this value is accepted, every other refused. */
  | { kind: "default-sort"; value: string };

export interface ListRoute {
  kind: "list";
  resource: LibraryResource;
  params: Readonly<Record<string, ParamRule>>;
}

/** A list kept whole inside a detail answer (a peptide's cited studies). */
export interface DetailListRoute {
  kind: "detail-list";
  detail: DetailKind;
  /** Which resource's items name the path's id (for resolving a peptide slug). */
  owner: LibraryResource;
}

export interface DetailRoute {
  kind: "detail";
  detail: DetailKind;
  owner: LibraryResource;
}

export type Route = ListRoute | DetailListRoute | DetailRoute;

const equals = (...path: string[]): ParamRule => ({ kind: "equals", path });

/** Path templates (relative to the base URL) the library answers, with `{id}` for the item. */
export const ROUTES: ReadonlyArray<readonly [string, Route]> = [
  [
    "/peptides",
    {
      kind: "list",
      resource: "peptides",
      params: {
        category: { kind: "holds", path: ["categories"] },
        evidence_level: equals("evidence", "level"),
        regulatory_status: equals("regulatory_status"),
        sort: { kind: "default-sort", value: "name" },
      },
    },
  ],
  ["/peptides/{id}", { kind: "detail", detail: "peptide", owner: "peptides" }],
  ["/peptides/{id}/studies", { kind: "detail-list", detail: "peptide-studies", owner: "peptides" }],
  ["/peptides/{id}/research", { kind: "detail", detail: "research", owner: "peptides" }],
  ["/regulatory-status/{id}", { kind: "detail", detail: "regulatory", owner: "peptides" }],
  ["/categories", { kind: "list", resource: "categories", params: {} }],
  ["/research-areas", { kind: "list", resource: "research-areas", params: {} }],
  [
    "/studies",
    {
      kind: "list",
      resource: "studies",
      params: {
        peptide: { kind: "peptide" },
        evidence_classification: { kind: "one-of", path: ["evidence_classification"] },
        year_from: { kind: "at-least", path: ["publication_year"] },
        year_to: { kind: "at-most", path: ["publication_year"] },
        sort: { kind: "default-sort", value: "newest" },
      },
    },
  ],
  ["/studies/{id}", { kind: "detail", detail: "study", owner: "studies" }],
  [
    "/vendors",
    {
      kind: "list",
      resource: "vendors",
      params: {
        country: equals("country"),
        min_rating: { kind: "at-least", path: ["rating", "average"] },
        sort: { kind: "default-sort", value: "best_match" },
      },
    },
  ],
  ["/vendors/{id}", { kind: "detail", detail: "vendor", owner: "vendors" }],
  [
    "/prices",
    {
      kind: "list",
      resource: "prices",
      params: { peptide: { kind: "peptide", path: ["peptide", "id"] }, currency: equals("currency") },
    },
  ],
  [
    "/products",
    { kind: "list", resource: "products", params: { peptide: { kind: "peptide", path: ["peptide", "id"] } } },
  ],
];

/** The route of a request path (`/peptides/bpc-157/studies`), with its decoded id. */
export function routeOf(path: string): { route: Route; id: string | undefined; template: string } | undefined {
  const parts = path.replace(/\/+$/, "").split("/");
  for (const [template, route] of ROUTES) {
    const want = template.split("/");
    if (want.length !== parts.length) continue;
    let id: string | undefined;
    let ok = true;
    for (let i = 0; i < want.length && ok; i++) {
      if (want[i] === "{id}") {
        try {
          id = decodeURIComponent(parts[i]!);
        } catch {
          ok = false;
        }
        ok &&= id !== "";
      } else ok = want[i] === parts[i];
    }
    if (ok) return { route, id, template };
  }
  return undefined;
}

/** The value at `path` inside an item. */
export function valueAt(item: Item, path: readonly string[]): unknown {
  let v: unknown = item;
  for (const key of path) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
