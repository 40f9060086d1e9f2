/**
 * A small API over loopback whose data a test changes between syncs: every list pages by
 * an offset cursor, every answer has an ETag (a hash of its body) and answers 304 to a
 * matching If-None-Match. A test can fail one page (500), cut the connection, or refuse a
 * keyed resource (403). Bodies are written as text, so a number such as 1.10 goes out as
 * written.
 */
import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { type RecordedRequest, startServer, type TestServer } from "../helpers/server.js";

export type Item = Record<string, unknown>;

export interface FakeApi {
  server: TestServer;
  base: string;
  /** Items by list path (`studies`, `peptides`, `vendors`, `products`, `prices`, `categories`, `research-areas`). */
  lists: Record<string, Item[]>;
  /** Raw JSON text put in place of `"__raw__:<name>"` strings (exact numbers). */
  raw: Record<string, string>;
  /** Answer 500 to the list page of this path whose offset is this (once per entry), or with `cut` close the connection instead. */
  failPage: Array<{ path: string; offset: number; times: number; cut?: boolean; status?: number }>;
  /** Answer 500 to a detail of this path (`/studies/pmid-1003`), once per entry. */
  failDetail: Array<{ path: string; times: number }>;
  /** Called before a list page is answered, which waits for it (a test moves the data mid-walk, or holds it). */
  beforePage?: (path: string, offset: number) => void | Promise<void>;
  /** Milliseconds each list page waits before it answers (to hold a sync open). */
  delayMs: number;
  /** Keyed list paths answered 403. */
  refused: Set<string>;
  /** Requests of this path (no /v1), with whether each carried If-None-Match and got 304. */
  log: Array<{ path: string; cursor: string | null; conditional: boolean; status: number }>;
  close(): Promise<void>;
}

const KEYED = new Set(["vendors", "products", "prices"]);

function study(n: number): Item {
  return {
    id: `pmid-${1000 + n}`,
    title: `Study ${n}`,
    publication_year: 2000 + (n % 20),
    authors: [`Author ${n}`],
    journal: "J",
    doi: null,
    pmid: String(1000 + n),
    nct_id: null,
    study_type: "trial",
    research_model: "human",
    evidence_classification: n % 2 ? "human_study" : "in_vitro",
    evidence_classification_label: n % 2 ? "Human study" : "In vitro",
    source_url: `https://x.example/${n}`,
    cited_by: [`pep-${n % 3}`],
  };
}

function peptide(n: number): Item {
  return {
    id: `pep-${n}`,
    name: `Pep ${n}`,
    also_known_as: [],
    categories: ["cognitive"],
    summary: "s",
    research_topics: ["t"],
    classification: "c",
    fda_status: "Not approved",
    evidence: {
      level: "preclinical",
      label: "Preclinical",
      human_studies: 0,
      preclinical_studies: n,
      secondary_reports: 1,
    },
    url: `https://x.example/p/${n}`,
    regulatory_status: "experimental",
    content_reviewed_at: "2024-01-01T00:00:00Z",
    api_url: `https://x.example/v1/peptides/pep-${n}`,
  };
}

export function defaultLists(studies = 250): Record<string, Item[]> {
  return {
    peptides: [0, 1, 2].map(peptide),
    studies: Array.from({ length: studies }, (_, i) => study(i)),
    vendors: [{ id: "vnd_1", slug: "v-one", name: "V One", rating: { average: 4.5, count: 3, verified_count: 1 } }],
    products: [{ id: "prd_1", peptide: { id: "pep-0", name: "Pep 0" }, form: "capsules", name: "P", vendor_count: 1 }],
    prices: [
      { id: "off_1", peptide: { id: "pep-0", name: "Pep 0" }, price: "__raw__:price", currency: "USD", in_stock: true },
    ],
    categories: [{ id: "cognitive", name: "Cognitive", url: "u", peptide_count: 3, peptides: [] }],
    "research-areas": [{ id: "memory", name: "Memory", peptide_count: 1, study_count: 2, peptides: [] }],
  };
}

function text(api: FakeApi, value: unknown): string {
  let out = JSON.stringify(value);
  for (const [k, v] of Object.entries(api.raw)) out = out.split(JSON.stringify(`__raw__:${k}`)).join(v);
  return out;
}

function answer(
  api: FakeApi,
  req: RecordedRequest,
  res: ServerResponse,
  path: string,
  cursor: string | null,
  body: string,
) {
  const etag = `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"`;
  const conditional = req.headers["if-none-match"] !== undefined;
  const status = req.headers["if-none-match"] === etag ? 304 : 200;
  api.log.push({ path, cursor, conditional, status });
  res.writeHead(status, {
    ETag: etag,
    "X-Request-Id": `req_${api.log.length}`,
    "RateLimit-Limit": "1000",
    "RateLimit-Remaining": "999",
    "RateLimit-Reset": "60",
    ...(status === 200 ? { "Content-Type": "application/json" } : {}),
  });
  res.end(status === 200 ? body : undefined);
}

async function listPage(api: FakeApi, req: RecordedRequest, res: ServerResponse, path: string): Promise<void> {
  if (api.delayMs > 0) await new Promise((r) => setTimeout(r, api.delayMs));
  const cursor = req.query.get("cursor");
  const offset = cursor === null ? 0 : Number(cursor);
  const limit = Number(req.query.get("limit") ?? 20);
  await api.beforePage?.(path, offset);
  const fail = api.failPage.find((f) => f.path === path && f.offset === offset && f.times > 0);
  if (fail?.cut) {
    fail.times -= 1;
    api.log.push({ path, cursor, conditional: false, status: 0 });
    res.socket?.destroy();
    return;
  }
  if (fail) {
    fail.times -= 1;
    api.log.push({ path, cursor, conditional: false, status: fail.status ?? 500 });
    res.writeHead(fail.status ?? 500, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: { code: "server_error", message: "page failed", request_id: "req_fail" } }));
    return;
  }
  const items = api.lists[path]!;
  const page = items.slice(offset, offset + limit);
  const more = offset + limit < items.length;
  const body = text(api, {
    data: page,
    pagination: { next_cursor: more ? String(offset + limit) : null, has_more: more },
    meta: path === "prices" ? { affiliate_disclosure: "Links may earn a commission.", request_id: "req_p" } : {},
  });
  answer(api, req, res, path, cursor, body);
}

function detail(api: FakeApi, req: RecordedRequest, res: ServerResponse, path: string): boolean {
  const m =
    /^\/peptides\/([^/]+)(\/research|\/studies)?$/.exec(path) ??
    /^\/regulatory-status\/([^/]+)$/.exec(path) ??
    /^\/vendors\/([^/]+)$/.exec(path) ??
    /^\/studies\/([^/]+)$/.exec(path);
  if (!m) return false;
  const id = decodeURIComponent(m[1]!);
  const kind = path.startsWith("/regulatory")
    ? "regulatory"
    : path.startsWith("/vendors")
      ? "vendor"
      : path.startsWith("/studies")
        ? "study"
        : (m[2] ?? "profile");
  const owner = kind === "vendor" ? api.lists.vendors! : kind === "study" ? api.lists.studies! : api.lists.peptides!;
  const item = owner.find((i) => i.id === id);
  const fail = api.failDetail.find((f) => f.path === path && f.times > 0);
  if (fail) {
    fail.times -= 1;
    api.log.push({ path, cursor: null, conditional: false, status: 500 });
    res.writeHead(500, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: { code: "server_error", message: "detail failed", request_id: "req_fail" } }));
    return true;
  }
  if (!item) {
    api.log.push({ path, cursor: null, conditional: false, status: 404 });
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: { code: "not_found", message: "no such item", request_id: "req_404" } }));
    return true;
  }
  let data: unknown = { ...item, kind };
  // A peptide's cited studies page as any list does, at most 50 a page whatever the limit asked.
  const offset = Number(req.query.get("cursor") ?? 0);
  const cited = kind === "/studies" ? api.lists.studies!.filter((s) => (s.cited_by as string[]).includes(id)) : [];
  const more = offset + 50 < cited.length;
  if (kind === "/studies") data = cited.slice(offset, offset + 50);
  if (kind === "regulatory") data = { peptide: id, fda: item.fda_status };
  // A study's own answer: more than its list item (each citing profile's summary).
  if (kind === "study") {
    const { cited_by: citing, ...rest } = item;
    const profiles = api.lists.peptides!.filter((p) => (citing as string[]).includes(p.id as string));
    data = { ...rest, cited_by: profiles.map((p) => ({ id: p.id, name: p.name, summary: p.summary })) };
  }
  const body = text(
    api,
    kind === "/studies"
      ? { data, pagination: { next_cursor: more ? String(offset + 50) : null, has_more: more }, meta: {} }
      : { data, meta: {} },
  );
  answer(api, req, res, path, null, body);
  return true;
}

export async function startFakeApi(lists = defaultLists()): Promise<FakeApi> {
  const api = {
    lists,
    raw: { price: "12.50" },
    failPage: [],
    failDetail: [],
    delayMs: 0,
    refused: new Set<string>(),
    log: [],
  } as unknown as FakeApi;
  api.server = await startServer((req, res) => {
    const path = req.path.replace(/^\/v1/, "") || "/";
    if (path === "/" || path === "")
      return answer(api, req, res, "/", null, text(api, { data: { api_version: "v1" }, meta: {} }));
    const name = path.slice(1);
    if (KEYED.has(name.split("/")[0]!) && (api.refused.has(name.split("/")[0]!) || !req.headers.authorization)) {
      api.log.push({ path: name, cursor: null, conditional: false, status: 403 });
      res.writeHead(403, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: { code: "forbidden", message: "scope missing", request_id: "req_403" } }));
      return;
    }
    if (api.lists[name]) return listPage(api, req, res, name);
    if (detail(api, req, res, path)) return;
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: { code: "not_found", message: `no route ${path}`, request_id: "r" } }));
  });
  api.base = `${api.server.url}/v1`;
  api.close = () => api.server.close();
  return api;
}
