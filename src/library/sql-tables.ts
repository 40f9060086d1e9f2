/**
 * The library's tables as a reader finds its way in them: every table (the data first,
 * pep's bookkeeping apart), each one's columns and types, and the nearest names when a
 * query names a table or column the library lacks. `pep sql --tables/--schema`
 * (commands/library/sql-explore.ts) and `pep mcp`'s table list (mcp/library-tools.ts)
 * read them here.
 */
import { LIBRARY_RESOURCES } from "../api/enums.js";
import { closest } from "../core/suggest.js";
import type { Library } from "./open.js";

const RESOURCE_TABLES = LIBRARY_RESOURCES.map((r) => r.replace(/-/g, "_"));

/** The tables a query is for, in the order docs/library.md tells them; any other table is pep's bookkeeping. */
const DATA_TABLES = [...RESOURCE_TABLES, "details", "peptide_studies", "study_cited_by", "changes", "syncs"];

export interface Column {
  column: string;
  type: string;
  not_null: boolean;
  primary_key: boolean;
}

export async function tableNames(lib: Library): Promise<string[]> {
  const rows =
    lib.dialect === "sqlite"
      ? await lib.db.all<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
        )
      : await lib.db.all<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name",
        );
  const names = rows.map((r) => String(r.name));
  const data = DATA_TABLES.filter((t) => names.includes(t));
  return [...data, ...names.filter((n) => !data.includes(n))];
}

export async function columnsOf(lib: Library, table: string): Promise<Column[]> {
  if (lib.dialect === "sqlite") {
    const rows = await lib.db.all<Record<string, unknown>>(
      'SELECT name, type, "notnull" AS nn, pk FROM pragma_table_info(?) ORDER BY cid',
      [table],
    );
    return rows.map((r) => ({
      column: String(r.name),
      type: String(r.type || "ANY").toLowerCase(),
      not_null: Number(r.nn) === 1,
      primary_key: Number(r.pk) > 0,
    }));
  }
  const rows = await lib.db.all<Record<string, unknown>>(
    `SELECT c.column_name AS name, c.data_type AS type, c.is_nullable AS nullable,
       EXISTS (SELECT 1 FROM information_schema.table_constraints t
         JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema
         WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name
           AND k.column_name = c.column_name) AS pk
     FROM information_schema.columns c
     WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position`,
    [table],
  );
  return rows.map((r) => ({
    column: String(r.name),
    type: String(r.type),
    not_null: r.nullable === "NO",
    primary_key: r.pk === true,
  }));
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

export const kindOf = (table: string) => (DATA_TABLES.includes(table) ? "data" : "bookkeeping");

/**
 * For a database error about a table or column the library lacks (SQLite: `no such
 * table: x`; PostgreSQL: `relation "x" does not exist`), the nearest names it has.
 */
export async function nearestNames(lib: Library, message: string): Promise<string | undefined> {
  const table = /no such table: ([^\s,]+)/.exec(message)?.[1] ?? /relation "([^"]+)" does not exist/.exec(message)?.[1];
  const column =
    /no such column: ([^\s,]+)/.exec(message)?.[1] ?? /column "?([^"\s]+)"? does not exist/.exec(message)?.[1];
  if (table === undefined && column === undefined) return undefined;
  const names = await tableNames(lib);
  if (table !== undefined) {
    const bare = table.split(".").pop()!;
    const near =
      nearest(
        bare,
        names.filter((n) => kindOf(n) === "data"),
      ) ?? nearest(bare, names);
    return near ? `did you mean ${near}? (pep sql --tables lists the tables)` : "pep sql --tables lists the tables";
  }
  const bare = column!.split(".").pop()!;
  const owners = new Map<string, string[]>();
  for (const t of names.filter((n) => kindOf(n) === "data"))
    for (const c of await columnsOf(lib, t)) owners.set(c.column, [...(owners.get(c.column) ?? []), t]);
  const near = nearest(bare, [...owners.keys()]);
  if (near === undefined) return "pep sql --schema <table> lists a table's columns";
  const tables = owners.get(near)!;
  const of = tables.length > 3 ? `${tables.slice(0, 3).join(", ")} and others` : tables.join(", ");
  return `did you mean ${near}? (a column of ${of}; pep sql --schema ${tables[0]} lists its columns)`;
}
