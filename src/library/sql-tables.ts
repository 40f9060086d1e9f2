/**
 * The library's tables as a reader finds its way in them, from one query of the catalog:
 * every table and view (the data first, then views, full-text indexes and pep's
 * bookkeeping), each one's columns, types, keys and references, the rows of each, and the
 * nearest names when a query names a table or column the library lacks. `pep sql
 * --tables/--schema` (commands/library/sql-explore.ts) and `pep mcp`'s table list
 * (mcp/library-tools.ts) read them here.
 */
import { LIBRARY_RESOURCES } from "../api/enums.js";
import { closest } from "../core/suggest.js";
import type { Library } from "./open.js";

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
  "item_versions",
  "meta",
];

/** What a table is for: the data, a view of it, a full-text index, or pep's (and FTS5's) bookkeeping. */
export type Kind = "data" | "view" | "full-text" | "bookkeeping";
const KIND_ORDER: readonly Kind[] = ["data", "view", "full-text", "bookkeeping"];

export interface Column {
  column: string;
  type: string;
  not_null: boolean;
  primary_key: boolean;
  /** `peptides.id` for a declared foreign key (in PostgreSQL also one kept as a comment, not a constraint). */
  references: string | null;
}

export interface Table {
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
export async function catalog(lib: Library): Promise<Table[]> {
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
export async function rowCounts(lib: Library, tables: readonly Table[]): Promise<Map<string, number>> {
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
export function nearest(word: string, names: readonly string[]): string | undefined {
  const forms = [word, `${word}s`, `${word}es`, word.replace(/y$/i, "ies"), word.replace(/s$/i, "")];
  for (const form of forms) {
    const hit = closest(form, names);
    if (hit !== undefined) return hit;
  }
  return undefined;
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
