/**
 * Which requests the library answers, and how (docs/offline.md): the routes of the
 * endpoints whose descriptor says how offline answers them (`offline` in
 * api/endpoints.ts, api/offline-answers.ts): a list's resource, the filters it reproduces
 * exactly and the one order it keeps, the API's default; a get's kept detail answer.
 * Anything else a request asks for is refused by the client; the command line refuses
 * the flags that would ask it before anything runs (`refusals.ts`).
 */
import { ENDPOINTS, type Endpoint } from "../api/endpoints.js";
import type { DetailKind, DetailResource, LibraryResource } from "../api/enums.js";
import type { ParamRule } from "../api/offline-answers.js";

export type { ParamRule } from "../api/offline-answers.js";

/** An item as parsed from its stored text. */
export type Item = Record<string, unknown>;

export interface ListRoute {
  kind: "list";
  resource: LibraryResource;
  params: Readonly<Record<string, ParamRule>>;
}

/** A list kept whole inside a detail answer (a peptide's cited studies). */
export interface DetailListRoute {
  kind: "detail-list";
  detail: DetailKind;
  /** Which resource's item the path parameter names. */
  owner: DetailResource;
}

export interface DetailRoute {
  kind: "detail";
  detail: DetailKind;
  owner: DetailResource;
}

export type Route = ListRoute | DetailListRoute | DetailRoute;

function routeFor(endpoint: Endpoint): Route | undefined {
  const answer = endpoint.offline;
  if (!answer) return undefined;
  if ("list" in answer) return { kind: "list", resource: answer.list, params: answer.params ?? {} };
  return { kind: endpoint.list ? "detail-list" : "detail", detail: answer.detail, owner: answer.of };
}

/** The descriptors' path templates (relative to the base URL) the library answers, with their routes. */
export const ROUTES: ReadonlyArray<readonly [string, Route]> = Object.values(ENDPOINTS).flatMap(
  (endpoint: Endpoint) => {
    const route = routeFor(endpoint);
    return route ? [[endpoint.path, route] as const] : [];
  },
);

/** A template's segment that is a path parameter (`{slug}`, `{id}`). */
const isParam = (segment: string) => /^\{\w+\}$/.test(segment);

/**
 * The route of a request path (`/peptides/bpc-157/studies`), with its decoded path
 * parameter. A literal segment wins over a parameter (`/vendors/compare` is no vendor).
 */
export function routeOf(path: string): { route: Route; id: string | undefined; template: string } | undefined {
  const parts = path.replace(/\/+$/, "").split("/");
  const literals = (template: string) => template.split("/").filter((s) => !isParam(s)).length;
  const candidates = [...ROUTES].sort(([a], [b]) => literals(b) - literals(a));
  for (const [template, route] of candidates) {
    const want = template.split("/");
    if (want.length !== parts.length) continue;
    let id: string | undefined;
    let ok = true;
    for (let i = 0; i < want.length && ok; i++) {
      if (isParam(want[i]!)) {
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
