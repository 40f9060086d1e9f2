/**
 * The names nearest to a slug or vendor id the API did not find, asked of the API itself:
 * its search for a peptide, the directory's name search for a vendor (one request each).
 * `pep mcp` turns them into a tool error's hint and the command line into `did you mean`.
 */
import type { Client } from "../http/client-types.js";
import { LIMITS } from "./enums.js";

export interface NearName {
  /** The id or slug to use. */
  id: string;
  name: string | undefined;
}

/** Profiles named like `given`, by GET /search (profiles only, at most 5). Throws what the request throws. */
export async function nearestPeptides(client: Client, given: string, signal?: AbortSignal): Promise<NearName[]> {
  const res = await client.request<{ peptides?: Array<{ id?: unknown; name?: unknown }> }>("/search", {
    query: { q: given.slice(0, LIMITS.searchMaxLength), types: "peptides", limit: 5 },
    ...(signal ? { signal } : {}),
  });
  return (res.data?.peptides ?? [])
    .filter((p) => typeof p?.id === "string")
    .map((p) => ({ id: String(p.id), name: typeof p.name === "string" ? p.name : undefined }));
}

/**
 * Vendors named like a near-miss id or slug, by GET /vendors?search= (at most 5; needs
 * `vendors:read`). A slug's words are a name's: "acme-peptides" is "acme peptides".
 */
export async function nearestVendors(client: Client, given: string, signal?: AbortSignal): Promise<NearName[]> {
  const words = given.replace(/[-_]+/g, " ").trim().slice(0, LIMITS.searchMaxLength);
  if (!words) return [];
  const res = await client.request<Array<{ id?: unknown; slug?: unknown; name?: unknown }>>("/vendors", {
    query: { search: words, fields: "id,slug,name", limit: 5 },
    ...(signal ? { signal } : {}),
  });
  return (Array.isArray(res.data) ? res.data : [])
    .filter((v) => typeof v?.slug === "string" || typeof v?.id === "string")
    .map((v) => ({ id: String(v.slug ?? v.id), name: typeof v.name === "string" ? v.name : undefined }));
}

/**
 * A research area as the API's `research_area` takes it (an area's exact name), from all
 * or part of one, as `/research-areas?search=` finds it: the areas whose name (or id)
 * contains it, case aside. `match` is the one named exactly, or the only one; else
 * `names` are the candidates (none, or several). `pep mcp` and `pep peptides list` share it.
 */
export async function researchAreasNamed(
  client: Client,
  given: string,
  signal?: AbortSignal,
): Promise<{ match?: string; names: string[] }> {
  const res = await client.request<Array<{ id?: unknown; name?: unknown }>>("/research-areas", {
    query: { search: given.slice(0, LIMITS.areaSearchMaxLength), limit: LIMITS.pageMax },
    ...(signal ? { signal } : {}),
  });
  const want = given.trim().toLowerCase();
  const areas = (Array.isArray(res.data) ? res.data : []).filter(
    (a): a is { id?: unknown; name: string } => typeof a?.name === "string",
  );
  const idOf = (a: { id?: unknown }) => (typeof a.id === "string" ? a.id.toLowerCase() : undefined);
  const exact = areas.find((a) => a.name.toLowerCase() === want || idOf(a) === want);
  if (exact) return { match: exact.name, names: [exact.name] };
  const names = areas
    .filter((a) => a.name.toLowerCase().includes(want) || (idOf(a)?.includes(want) ?? false))
    .map((a) => a.name);
  return names.length === 1 ? { match: names[0]!, names } : { names };
}
