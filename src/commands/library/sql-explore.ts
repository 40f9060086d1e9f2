/**
 * Finding one's way in the library from pep itself: `pep sql --tables` (every table, the
 * data first, pep's bookkeeping apart, with how many rows and columns each has) and
 * `pep sql --schema <table>` (its columns and types), as lists in every output format; the
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

/** The tables a query is for, in the order docs/library.md tells them; any other table is pep's bookkeeping. */
const DATA_TABLES = [...RESOURCE_TABLES, "details", "peptide_studies", "study_cited_by", "changes", "syncs"];

interface Column {
  column: string;
  type: string;
  not_null: boolean;
  primary_key: boolean;
}

async function tableNames(lib: Library): Promise<string[]> {
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

async function columnsOf(lib: Library, table: string): Promise<Column[]> {
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
function nearest(word: string, names: readonly string[]): string | undefined {
  const forms = [word, `${word}s`, `${word}es`, word.replace(/y$/i, "ies"), word.replace(/s$/i, "")];
  for (const form of forms) {
    const hit = closest(form, names);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

const kindOf = (table: string) => (DATA_TABLES.includes(table) ? "data" : "bookkeeping");

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
  const names = await tableNames(lib);
  if (schema === undefined) {
    const rows = [];
    for (const table of names) {
      const count = await lib.db.get<{ n: unknown }>(`SELECT COUNT(*) AS n FROM "${table.replace(/"/g, '""')}"`);
      rows.push({
        table,
        kind: kindOf(table),
        rows: Number(count?.n ?? 0),
        columns: (await columnsOf(lib, table)).length,
      });
    }
    return list(rows, ["table", "kind", "rows", "columns"]);
  }
  const table = names.find((n) => n === schema) ?? names.find((n) => n.toLowerCase() === schema.toLowerCase());
  if (table === undefined) {
    const near = nearest(schema, names);
    throw new UsageError(`--schema: the library has no table "${schema}"`, {
      hints: [near ? `did you mean ${near}? (pep sql --tables lists them)` : "pep sql --tables lists the tables"],
    });
  }
  return list(await columnsOf(lib, table), ["column", "type", "not_null", "primary_key"]);
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
