/**
 * A manifest's own look-ups for an export answered by the API (docs/cli.md#manifests),
 * after the export is in place and only with `--manifest`: the index (`GET /`, the API's
 * name and version as it names itself), and what each peptide name and study id the
 * requests carried resolves to (`GET /peptides/{name}`, `GET /studies/{id}`: the id of the
 * item answered). The API resolves names itself and its lists do not say to what, so
 * asking is the one way to know. Vendors are not asked: their look-ups are metered. Each
 * look-up is a request of the manifest like any other; one that fails leaves its answer null.
 */
import type { Client } from "../http/client-types.js";
import type { Provenance } from "./provenance.js";

export interface Resolution {
  resource: "peptides" | "studies";
  given: string;
  id: string | null;
  by: "api";
}

/** The peptide names and study ids the answer's requests carried, in the order first sent. */
export function namesSent(
  urls: readonly string[],
  baseUrl: string,
): Array<{ resource: Resolution["resource"]; given: string }> {
  const base = new URL(baseUrl).pathname.replace(/\/+$/, "");
  const out: Array<{ resource: Resolution["resource"]; given: string }> = [];
  const add = (resource: Resolution["resource"], given: string) => {
    if (given !== "" && !out.some((n) => n.resource === resource && n.given === given)) out.push({ resource, given });
  };
  for (const url of urls) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      continue;
    }
    const rel = u.pathname.startsWith(base) ? u.pathname.slice(base.length) : u.pathname;
    const parts = rel
      .split("/")
      .filter((p) => p !== "")
      .map((p) => decodeURIComponent(p));
    if ((parts[0] === "peptides" || parts[0] === "regulatory-status") && parts[1] !== undefined)
      add("peptides", parts[1]);
    if (parts[0] === "studies" && parts[1] !== undefined) add("studies", parts[1]);
    const peptide = u.searchParams.get("peptide");
    if (peptide !== null) add("peptides", peptide);
  }
  return out;
}

/** The id of the item an answer is (`data.id`), when it has one. */
const idOf = (data: unknown): string | null => {
  const id = (data as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? String(id) : null;
};

/** Asks the index and each name; the requests land in `prov.pages` with their purpose. */
export async function lookUp(
  client: Client,
  prov: Provenance,
  baseUrl: string,
  signal: AbortSignal,
): Promise<{ api: { name: string | undefined; version: string | undefined }; resolved: Resolution[] }> {
  const names = namesSent(
    prov.pages.filter((p) => p.role === "answer").map((p) => p.url),
    baseUrl,
  );
  const api: { name: string | undefined; version: string | undefined } = { name: undefined, version: undefined };
  prov.role = "index";
  try {
    const index = await client.request<{ name?: unknown; api_version?: unknown }>("/", { signal });
    if (typeof index.data?.name === "string") api.name = index.data.name;
    if (typeof index.data?.api_version === "string") api.version = index.data.api_version;
  } catch (err) {
    // The index said nothing: its fields stay null (a run stopped stops here).
    if (signal.aborted) throw err;
  }
  prov.role = "resolve";
  const resolved: Resolution[] = [];
  for (const n of names) {
    let id: string | null = null;
    try {
      const res = await client.request(`/${n.resource}/${encodeURIComponent(n.given)}`, { signal });
      id = idOf(res.data);
    } catch (err) {
      // Not found, or not answered: what it named stays unknown.
      if (signal.aborted) throw err;
    }
    resolved.push({ resource: n.resource, given: n.given, id, by: "api" });
  }
  prov.role = "answer";
  return { api, resolved };
}
