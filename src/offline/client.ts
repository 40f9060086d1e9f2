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
import type { ApiResponse, Client, Meta, Pagination, Query, RequestOptions } from "../http/types.js";
import { queryValue } from "../http/url.js";
import { decodeCursor, encodeCursor, listingDigest } from "./cursor.js";
import type { LibraryReader, LibraryResource, StoredItem, SyncInfo } from "./reader.js";
import { type DetailListRoute, type DetailRoute, type Item, type ListRoute, routeOf, valueAt } from "./routes.js";

/** Not in the library: exit 4, as the API's 404, with the sync that would fetch it. */
export class NotInLibraryError extends PepError {
  constructor(message: string, resource: LibraryResource) {
    super(message, EXIT.notFound, {
      hints: [`Run \`pep sync ${resource}\` while online to fetch it into the library, then try again.`],
    });
  }
}

/** The item is in the library, its own answer (a profile, a study's detail) is not. */
function noDetail(kind: string, id: string, resource: LibraryResource): NotInLibraryError {
  const what = kind === "study" ? "detail (GET /studies/{id})" : `${kind} answer`;
  const err = new NotInLibraryError(`the library holds "${id}" but not its ${what}`, resource);
  err.hints = [
    `Run the command online; \`pep sync ${resource}\` keeps only what the library documents (docs/offline.md).`,
  ];
  return err;
}

/** Items read per query while a filter skips some: a page rarely needs a second read. */
const BATCH = 500;

interface Selection {
  tests: Array<(item: Item) => boolean>;
  citedBy: string | undefined;
}

export interface OfflineClientOptions {
  /** Told once, at the first answer: which library and when it was synced. */
  onSync?: (sync: SyncInfo, where: string) => void;
}

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

const parseItem = (stored: StoredItem): Item => parseJsonExact(stored.text) as Item;

export function createOfflineClient(reader: LibraryReader, options: OfflineClientOptions = {}): Client {
  let syncPromise: Promise<SyncInfo> | undefined;
  let synced: SyncInfo | undefined;
  const peptides = new Map<string, Promise<Item[]>>();

  /** The last sync; a library no sync ever finished is refused. */
  const sync = () =>
    (syncPromise ??= reader.lastSync().then((s) => {
      if (!s)
        throw new UsageError(`--offline: the library ${reader.where} holds no finished sync`, {
          hints: ["Run `pep sync` while online to fill it."],
        });
      synced = s;
      options.onSync?.(s, reader.where);
      return s;
    }));

  /** Every stored item of a small resource (peptides, vendors), read once a run, to resolve names. */
  const allOf = (resource: LibraryResource) => {
    let p = peptides.get(resource);
    if (!p) {
      p = (async () => {
        const out: Item[] = [];
        for (let after = Number.MIN_SAFE_INTEGER; ; ) {
          const rows = await reader.items(resource, { after, limit: BATCH });
          for (const r of rows) out.push(parseItem(r));
          if (rows.length < BATCH) return out;
          after = rows[rows.length - 1]!.ord;
        }
      })();
      peptides.set(resource, p);
    }
    return p;
  };

  /**
   * The id of the item `given` names: its id, or for a peptide its name or an alias, as
   * written; else the one that matches ignoring case. None: not in the library.
   */
  async function resolve(resource: LibraryResource, given: string): Promise<string> {
    if (resource === "studies") {
      const found = await reader.item("studies", given);
      if (!found) throw new NotInLibraryError(`study "${given}" is not in the library`, "studies");
      return String(parseItem(found).id);
    }
    const names = (it: Item): string[] =>
      resource === "peptides"
        ? [it.id, it.name, ...(Array.isArray(it.also_known_as) ? it.also_known_as : [])].map(String)
        : [it.id, it.slug].filter((v) => v !== undefined && v !== null).map(String);
    const items = await allOf(resource);
    const exact = items.find((it) => names(it).includes(given));
    if (exact) return String(exact.id);
    const lower = given.toLowerCase();
    const loose = items.filter((it) => names(it).some((n) => n.toLowerCase() === lower));
    if (loose.length === 1) return String(loose[0]!.id);
    const noun = resource === "peptides" ? "peptide" : "vendor";
    throw new NotInLibraryError(`${noun} "${given}" is not in the library`, resource);
  }

  /** The filters of a list request, each checked against what the route reproduces. */
  async function selection(route: ListRoute, query: Record<string, string>): Promise<Selection> {
    const sel: Selection = { tests: [], citedBy: undefined };
    for (const [name, value] of Object.entries(query)) {
      if (name === "limit" || name === "cursor") continue;
      const rule = route.params[name];
      if (!rule)
        throw new UsageError(
          `--offline: the library cannot answer the ${name} parameter of ${route.resource} exactly`,
          {
            hints: ["Run the command online, or query the library with `pep sql`."],
          },
        );
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
          const id = await resolve("peptides", value);
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
  async function listPage(route: ListRoute, path: string, query: Record<string, string>) {
    const s = await sync();
    const listMeta = await reader.listMeta(route.resource);
    if (!listMeta)
      throw new NotInLibraryError(`the library holds no ${route.resource}: no sync has fetched them`, route.resource);
    const sel = await selection(route, query);
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
  async function detailListPage(route: DetailListRoute, path: string, id: string, query: Record<string, string>) {
    const s = await sync();
    for (const name of Object.keys(query))
      if (name !== "limit" && name !== "cursor")
        throw new UsageError(`--offline: the library cannot answer the ${name} parameter of ${path}`);
    const owner = await resolve(route.owner, id);
    const stored = await reader.detail(route.detail, owner);
    if (!stored) throw noDetail(route.detail, id, route.owner);
    const all = parseJsonExact(stored.text);
    if (!Array.isArray(all))
      throw new PepError(`the library's ${route.detail} answer for "${id}" is not a list`, EXIT.unexpected);
    const limit = pageLimit(query.limit);
    const listing = listingDigest(`${route.detail}/${owner}`, query);
    const from = query.cursor === undefined ? 0 : decodeCursor(query.cursor, listing, s.id);
    const page = all.slice(from, from + limit);
    const more = from + page.length < all.length;
    return envelope(page, stored.meta, {
      next_cursor: more ? encodeCursor(from + page.length, listing, s.id) : null,
      has_more: more,
    });
  }

  async function detailAnswer(route: DetailRoute, id: string, query: Record<string, string>) {
    await sync();
    const [name] = Object.keys(query);
    if (name !== undefined)
      throw new UsageError(`--offline: the library cannot answer the ${name} parameter of a ${route.detail}`);
    const owner = await resolve(route.owner, id);
    const stored = await reader.detail(route.detail, owner);
    if (!stored) throw noDetail(route.detail, id, route.owner);
    return envelope(parseJsonExact(stored.text), stored.meta, undefined);
  }

  const client: Client = {
    /** The API the library was synced from (the sandbox notice names it), once read. */
    get baseUrl() {
      return synced?.baseUrl ?? "library";
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
      const res =
        route.kind === "list"
          ? await listPage(route, found.template, query)
          : route.kind === "detail-list"
            ? await detailListPage(route, found.template, id!, query)
            : await detailAnswer(route, id!, query);
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
