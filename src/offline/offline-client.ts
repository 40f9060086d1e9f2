/**
 * The library as a source (docs/offline.md): a `Client` whose `request(path, query)`
 * answers the API's envelope from stored text instead of HTTP, so every list and get
 * command runs offline through the code it runs online, and prints the same bytes.
 *
 * Items and detail answers are the stored text as the API sent it, parsed as the HTTP
 * client parses an answer (number text kept); lists keep the API's default order (`ord`)
 * and page with opaque cursors. A parameter the library cannot answer exactly is refused
 * (exit 2), an id it does not hold is exit 4 with a hint to sync: nothing is approximated.
 */
import { parseJsonExact } from "../core/exact-number.js";
import { EXIT, PepError, UsageError } from "../core/errors.js";
import { paginate } from "../http/paginate.js";
import type { ApiResponse, Client, Meta, Pagination, Query, RequestOptions } from "../http/client-types.js";
import { queryValue } from "../http/url.js";
import { decodeCursor, encodeCursor, listingDigest } from "./offline-cursor.js";
import type { LibraryReader } from "./reader.js";
import { BATCH, createSession, NotInLibraryError, parseItem, type Session, type SessionOptions } from "./session.js";
import { type DetailListRoute, type DetailRoute, type Item, type ListRoute, routeOf, valueAt } from "./routes.js";

export { NotInLibraryError } from "./session.js";

/** The item is in the library, its own answer (a profile, a study's detail) is not. */
function noDetail(route: DetailRoute | DetailListRoute, id: string): NotInLibraryError {
  const { detail: kind, owner: resource } = route;
  if (resource === "studies" && kind === "profile") {
    const err = new NotInLibraryError(
      `the library holds study "${id}" but not its own answer (GET /studies/{id}): a sync keeps studies' own answers only once asked to, with --study-details`,
      resource,
    );
    err.hints = [
      "Run `pep sync studies --study-details` while online to keep every study's own answer (on later syncs too), then try again; or run the command online.",
    ];
    return err;
  }
  const err = new NotInLibraryError(`the library holds "${id}" but not its ${kind} answer`, resource);
  err.hints = [
    `Run the command online; \`pep sync ${resource}\` keeps only what the library documents (docs/offline.md).`,
  ];
  return err;
}

interface Selection {
  tests: Array<(item: Item) => boolean>;
  citedBy: string | undefined;
}

export type OfflineClientOptions = SessionOptions;

/** The query as the API would read it: names to strings, empty values left out. */
function queryStrings(query: Query | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query ?? {})) {
    const s = queryValue(v);
    if (s !== undefined) out[k] = s;
  }
  return out;
}

function pageLimit(raw: string | undefined): number {
  if (raw === undefined) return 20;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 100)
    throw new UsageError(`limit must be a whole number from 1 to 100 (got "${raw}")`);
  return n;
}

/** The filters of a list request, each checked against what the route reproduces. */
async function selection(session: Session, route: ListRoute, query: Record<string, string>): Promise<Selection> {
  const sel: Selection = { tests: [], citedBy: undefined };
  for (const [name, value] of Object.entries(query)) {
    if (name === "limit" || name === "cursor") continue;
    const rule = route.params[name];
    if (!rule)
      throw new UsageError(`--offline: the library cannot answer the ${name} parameter of ${route.resource} exactly`, {
        hints: ["Run the command online, or query the library with `pep sql`."],
      });
    switch (rule.kind) {
      case "equals":
        sel.tests.push((it) => valueAt(it, rule.path) === value);
        break;
      case "holds":
        sel.tests.push((it) => {
          const v = valueAt(it, rule.path);
          return Array.isArray(v) && v.includes(value);
        });
        break;
      case "one-of": {
        const wanted = new Set(value.split(",").map((s) => s.trim()));
        sel.tests.push((it) => wanted.has(String(valueAt(it, rule.path))));
        break;
      }
      case "at-least":
      case "at-most": {
        const bound = Number(value);
        sel.tests.push((it) => {
          const v = valueAt(it, rule.path);
          if (v === null || v === undefined || typeof v === "string" || typeof v === "boolean") return false;
          const n = Number(v);
          return Number.isFinite(n) && (rule.kind === "at-least" ? n >= bound : n <= bound);
        });
        break;
      }
      case "peptide": {
        const id = await session.resolve("peptides", value);
        if (rule.path) {
          const path = rule.path;
          sel.tests.push((it) => valueAt(it, path) === id);
        } else sel.citedBy = id;
        break;
      }
      case "default-sort":
        if (value !== rule.value)
          throw new UsageError(
            `--sort ${value}: the library keeps the API's default order (${rule.value}) only, and cannot reproduce another exactly`,
            { hints: [`Leave out --sort (or give --sort ${rule.value}) offline, or run it online.`] },
          );
    }
  }
  return sel;
}

/** One page of a stored list: items after the cursor's position that pass every test. */
async function listPage(session: Session, route: ListRoute, path: string, query: Record<string, string>) {
  const { reader } = session;
  const s = await session.sync();
  const listMeta = await reader.listMeta(route.resource);
  if (!listMeta)
    throw new NotInLibraryError(`the library holds no ${route.resource}: no sync has fetched them`, route.resource);
  const sel = await selection(session, route, query);
  const limit = pageLimit(query.limit);
  const listing = listingDigest(path, query);
  let after = query.cursor === undefined ? Number.MIN_SAFE_INTEGER : decodeCursor(query.cursor, listing, s.id);
  const found: Array<{ ord: number; item: Item }> = [];
  const filtered = sel.tests.length > 0;
  for (;;) {
    const ask = filtered ? BATCH : limit + 1 - found.length;
    const rows = await reader.items(route.resource, { after, limit: ask, citedBy: sel.citedBy });
    for (const row of rows) {
      const item = parseItem(row);
      if (sel.tests.every((t) => t(item))) found.push({ ord: row.ord, item });
      if (found.length > limit) break;
    }
    if (found.length > limit || rows.length < ask) break;
    after = rows[rows.length - 1]!.ord;
  }
  const more = found.length > limit;
  const page = found.slice(0, limit);
  const next = more ? encodeCursor(page[page.length - 1]!.ord, listing, s.id) : null;
  return envelope(
    page.map((f) => f.item),
    listMeta,
    { next_cursor: next, has_more: more },
  );
}

/** A list kept inside a detail answer, paged by position. */
async function detailListPage(
  session: Session,
  route: DetailListRoute,
  path: string,
  id: string,
  query: Record<string, string>,
) {
  const { reader } = session;
  const s = await session.sync();
  for (const name of Object.keys(query))
    if (name !== "limit" && name !== "cursor")
      throw new UsageError(`--offline: the library cannot answer the ${name} parameter of ${path}`);
  const owner = await session.resolve(route.owner, id);
  const stored = await reader.detail(route.owner, route.detail, owner);
  if (!stored) throw noDetail(route, id);
  const all = parseJsonExact(stored.text);
  if (!Array.isArray(all))
    throw new PepError(`the library's ${route.detail} answer for "${id}" is not a list`, EXIT.unexpected);
  const limit = pageLimit(query.limit);
  const listing = listingDigest(`${route.owner}/${route.detail}/${owner}`, query);
  const from = query.cursor === undefined ? 0 : decodeCursor(query.cursor, listing, s.id);
  const page = all.slice(from, from + limit);
  const more = from + page.length < all.length;
  return envelope(page, stored.meta, {
    next_cursor: more ? encodeCursor(from + page.length, listing, s.id) : null,
    has_more: more,
  });
}

/** A get answer: the stored detail of the item the path names. */
async function detailAnswer(session: Session, route: DetailRoute, id: string, query: Record<string, string>) {
  await session.sync();
  const [name] = Object.keys(query);
  if (name !== undefined)
    throw new UsageError(`--offline: the library cannot answer the ${name} parameter of a ${route.detail} answer`);
  const owner = await session.resolve(route.owner, id);
  const stored = await session.reader.detail(route.owner, route.detail, owner);
  if (!stored) throw noDetail(route, id);
  return envelope(parseJsonExact(stored.text), stored.meta, undefined);
}

export function createOfflineClient(reader: LibraryReader, options: OfflineClientOptions = {}): Client {
  const session = createSession(reader, options);
  const client: Client = {
    /** The API the library was synced from (the sandbox notice names it), once read. */
    get baseUrl() {
      return session.synced()?.baseUrl ?? "library";
    },
    async request<T = unknown>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
      if (opts.signal?.aborted) throw opts.signal.reason ?? new Error("aborted");
      const found = routeOf(path);
      if (!found)
        throw new UsageError(`--offline: the library cannot answer GET ${path}`, {
          hints: ["Run the command online."],
        });
      const query = queryStrings(opts.query);
      const { route, id } = found;
      const sync = await session.sync();
      const walk = await session.use(route.kind === "list" ? route.resource : route.owner);
      const res =
        route.kind === "list"
          ? await listPage(session, route, found.template, query)
          : route.kind === "detail-list"
            ? await detailListPage(session, route, found.template, id!, query)
            : await detailAnswer(session, route, id!, query);
      // When the answer's walk ended, as the run's notice says it (open-offline.ts tellingWalks).
      res.synced = walk?.finishedAt ?? sync.finishedAt;
      return res as ApiResponse<T>;
    },
    paginate(path, opts) {
      return paginate(client.request, path, opts);
    },
    async close() {
      await reader.close();
    },
  };
  return client;
}

/** The API's success envelope around stored data. */
function envelope(data: unknown, meta: Meta, pagination: Pagination | undefined): ApiResponse<unknown> {
  const body = pagination ? { data, pagination, meta } : { data, meta };
  return {
    status: 200,
    data,
    pagination,
    meta,
    body,
    text: "",
    requestId: undefined,
    etag: undefined,
    rateLimit: {},
    fromCache: false,
    bytes: 0,
  };
}
