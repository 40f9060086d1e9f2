/**
 * Finding one's way in the library from pep itself: `pep sql --tables` (every table and
 * view, the data first, then views, full-text indexes and pep's bookkeeping, with how many
 * rows and columns each has) and `pep sql --schema <table>` (its columns, types, keys and
 * references), as lists in every output format, from one query of the catalog; the
 * nearest names when a query names a table or column the library lacks; and the synthetic
 * notice when what the library holds came from the sandbox.
 */
import { LIBRARY_RESOURCES } from "../../api/enums.js";
import type { Context } from "../../core/command-context.js";
import type { ListResult } from "../../core/command.js";
import { rowsList } from "../shared/held-rows.js";
import { UsageError } from "../../core/errors.js";
import { closest } from "../../core/suggest.js";
import { type Library, openLibrary } from "../../library/open.js";

const RESOURCE_TABLES = LIBRARY_RESOURCES.map((r) => r.replace(/-/g, "_"));

/** The tables a query is for, in the order docs/library.md tells them (the data, then the record of the syncs). */
const DATA_TABLES = [
  ...RESOURCE_TABLES,
  "details",
  "peptide_studies",
  "study_cited_by",
  "changes",
  "syncs",
  "walks",
  "meta",
];

/** What a table is for: the data, a view of it, a full-text index, or pep's (and FTS5's) bookkeeping. */
type Kind = "data" | "view" | "full-text" | "bookkeeping";
const KIND_ORDER: readonly Kind[] = ["data", "view", "full-text", "bookkeeping"];

interface Column {
  column: string;
  type: string;
  not_null: boolean;
  primary_key: boolean;
  /** `peptides.id` for a declared foreign key (in PostgreSQL also one kept as a comment, not a constraint). */
  references: string | null;
}

interface Table {
  table: string;
  kind: Kind;
  columns: Column[];
}

/** One row per column of every table and view the reader may read (its kind, type, key and reference). */
interface CatalogRow {
  tbl: string;
  type: string;
  col: string;
  ctype: string | null;
  nn: unknown;
  pk: unknown;
  ref: string | null;
}

/**
 * Every table and view with its columns, in one query of the catalog (the former query
 * per table of information_schema took seconds on PostgreSQL).
 */
const CATALOG = {
  sqlite: `SELECT m.name AS tbl, m.type AS type, c.name AS col, c.type AS ctype, c."notnull" AS nn, c.pk AS pk,
      (SELECT f."table" || '.' || COALESCE(f."to", 'id') FROM pragma_foreign_key_list(m.name) f WHERE f."from" = c.name) AS ref
    FROM sqlite_master m JOIN pragma_table_info(m.name) c
    WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
    ORDER BY m.name, c.cid`,
  postgres: `SELECT c.relname AS tbl, CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'view' ELSE 'table' END AS type,
      a.attname AS col, format_type(a.atttypid, a.atttypmod) AS ctype, a.attnotnull AS nn,
      COALESCE(a.attnum = ANY (i.indkey), false) AS pk,
      COALESCE(
        (SELECT r.relname || '.' || ra.attname FROM pg_constraint k
           JOIN pg_class r ON r.oid = k.confrelid
           JOIN pg_attribute ra ON ra.attrelid = k.confrelid AND ra.attnum = k.confkey[1]
         WHERE k.contype = 'f' AND k.conrelid = c.oid AND k.conkey = ARRAY[a.attnum]),
        substring(col_description(c.oid, a.attnum) from '^references ([a-z_]+) \\(id\\)') || '.id'
      ) AS ref
    FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
      AND has_table_privilege(c.oid, 'SELECT')
    ORDER BY c.relname, a.attnum`,
} as const;

function kindOfTable(name: string, type: string, columns: readonly Column[]): Kind {
  if (type === "view") return "view";
  if (name.startsWith("_pep_") || name === "schema_migrations") return "bookkeeping";
  // FTS5's table (`studies_fts`, made USING FTS5: no declared types) and its own shadow tables.
  if (/_fts$/.test(name) && columns.every((c) => c.type === "any")) return "full-text";
  if (/_fts_(data|idx|docsize|config|content)$/.test(name)) return "bookkeeping";
  return "data";
}

/** The library's tables, the data first (in the order docs/library.md tells them), then views, indexes, bookkeeping. */
async function catalog(lib: Library): Promise<Table[]> {
  const rows = await lib.db.all<CatalogRow>(CATALOG[lib.dialect]);
  const byName = new Map<string, { type: string; columns: Column[] }>();
  for (const r of rows) {
    const t = byName.get(r.tbl) ?? { type: r.type, columns: [] };
    byName.set(r.tbl, t);
    t.columns.push({
      column: String(r.col),
      type: String(r.ctype || "ANY").toLowerCase(),
      not_null: r.nn === true || Number(r.nn) === 1,
      primary_key: r.pk === true || Number(r.pk) > 0,
      references: r.ref ?? null,
    });
  }
  const tables = [...byName].map(([table, t]) => ({
    table,
    kind: kindOfTable(table, t.type, t.columns),
    columns: t.columns,
  }));
  const place = (t: Table) => {
    const i = DATA_TABLES.indexOf(t.table);
    return KIND_ORDER.indexOf(t.kind) * 1000 + (i === -1 ? 999 : i);
  };
  return tables.sort((a, b) => place(a) - place(b) || a.table.localeCompare(b.table));
}

/** Each table's rows, in one query (a view's or a full-text index's are not counted: null). */
async function rowCounts(lib: Library, tables: readonly Table[]): Promise<Map<string, number>> {
  const counted = tables.filter((t) => t.kind === "data" || t.kind === "bookkeeping");
  if (counted.length === 0) return new Map();
  const quote = (s: string) => s.replace(/"/g, '""');
  const sql = counted
    .map((t) => `SELECT '${t.table.replace(/'/g, "''")}' AS t, COUNT(*) AS n FROM "${quote(t.table)}"`)
    .join(" UNION ALL ");
  const rows = await lib.db.all<{ t: string; n: unknown }>(sql);
  return new Map(rows.map((r) => [String(r.t), Number(r.n)]));
}

/** The name nearest to `word`, its plural too (`study` is a slip for `studies`, as `categorie` for `categories`). */
function nearest(word: string, names: readonly string[]): string | undefined {
  const forms = [word, `${word}s`, `${word}es`, word.replace(/y$/i, "ies"), word.replace(/s$/i, "")];
  for (const form of forms) {
    const hit = closest(form, names);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

const list = (items: unknown[], fields: string[]): ListResult => rowsList(items, { fields });

/** `--tables`, or `--schema <table>` when `schema` is given. */
export async function explore(ctx: Context, schema: string | undefined): Promise<ListResult> {
  const lib = await openLibrary(ctx, { write: false });
  await syntheticNotice(ctx, lib);
  // For a manifest: the library described, and its complete walks (a listing, not one statement).
  await ctx.answeredFrom?.({
    facts: async () =>
      (await import("../../library/library-facts.js")).libraryFactsHeld({
        dialect: lib.dialect,
        location: lib.location,
        all: (sql, params) => lib.db.all(sql, params),
        run: (sql) => lib.db.run(sql),
      }),
  });
  const tables = await catalog(lib);
  if (schema === undefined) {
    const counts = await rowCounts(lib, tables);
    const rows = tables.map((t) => ({
      table: t.table,
      kind: t.kind,
      rows: counts.get(t.table) ?? null,
      columns: t.columns.length,
    }));
    return list(rows, ["table", "kind", "rows", "columns"]);
  }
  const names = tables.map((t) => t.table);
  const table = names.find((n) => n === schema) ?? names.find((n) => n.toLowerCase() === schema.toLowerCase());
  if (table === undefined) {
    const near = nearest(schema, names);
    throw new UsageError(`--schema: the library has no table "${schema}"`, {
      hints: [near ? `did you mean ${near}? (pep sql --tables lists them)` : "pep sql --tables lists the tables"],
    });
  }
  const columns = tables.find((t) => t.table === table)?.columns ?? [];
  return list(columns, ["column", "type", "not_null", "primary_key", "references"]);
}

/** The synthetic-data notice, when the library's items came from the sandbox (each resource table marks its rows). */
export async function syntheticNotice(ctx: Context, lib: Library): Promise<void> {
  // One look, at the last finished sync: a library is bound to one API (a sync from
  // another is refused), so its last sync says whether the data is the sandbox's. On
  // PostgreSQL the look is a savepoint of the reader's snapshot, so that a library
  // without a syncs table (made by another tool) leaves the snapshot usable.
  const pg = lib.dialect === "postgres";
  let last: { synthetic: unknown; url: unknown } | undefined;
  try {
    if (pg) await lib.db.run("SAVEPOINT pep_notice");
    last = await lib.db.get<{ synthetic: unknown; url: unknown }>(
      "SELECT synthetic, base_url AS url FROM syncs WHERE status <> 'running' ORDER BY id DESC LIMIT 1",
    );
    if (pg) await lib.db.run("RELEASE SAVEPOINT pep_notice");
  } catch {
    // A library without the record says nothing.
    if (pg) await lib.db.run("ROLLBACK TO SAVEPOINT pep_notice").catch(() => undefined);
    return;
  }
  if (last && Number(last.synthetic) === 1) ctx.sandboxData(String(last.url ?? lib.location));
}

/**
 * For a database error about a table or column the library lacks (SQLite: `no such
 * table: x`; PostgreSQL: `relation "x" does not exist`), the nearest names it has.
 */
export async function nearestNames(lib: Library, message: string): Promise<string | undefined> {
  const table = /no such table: ([^\s,]+)/.exec(message)?.[1] ?? /relation "([^"]+)" does not exist/.exec(message)?.[1];
  const column =
    /no such column: ([^\s,]+)/.exec(message)?.[1] ?? /column "?([^"\s]+)"? does not exist/.exec(message)?.[1];
  if (table === undefined && column === undefined) return undefined;
  const tables = await catalog(lib);
  const names = tables.map((t) => t.table);
  const data = tables.filter((t) => t.kind === "data" || t.kind === "view");
  if (table !== undefined) {
    const bare = table.split(".").pop()!;
    const near =
      nearest(
        bare,
        data.map((t) => t.table),
      ) ?? nearest(bare, names);
    return near ? `did you mean ${near}? (pep sql --tables lists the tables)` : "pep sql --tables lists the tables";
  }
  const bare = column!.split(".").pop()!;
  const owners = new Map<string, string[]>();
  for (const t of data) for (const c of t.columns) owners.set(c.column, [...(owners.get(c.column) ?? []), t.table]);
  const near = nearest(bare, [...owners.keys()]);
  if (near === undefined) return "pep sql --schema <table> lists a table's columns";
  const holders = owners.get(near)!;
  const of = holders.length > 3 ? `${holders.slice(0, 3).join(", ")} and others` : holders.join(", ");
  return `did you mean ${near}? (a column of ${of}; pep sql --schema ${holders[0]} lists its columns)`;
}
