/**
 * Finding one's way in the library from pep itself: `pep sql --tables` (every table, the
 * data first, pep's bookkeeping apart, with how many rows and columns each has) and
 * `pep sql --schema <table>` (its columns and types), as lists in every output format; the
 * nearest names when a query names a table or column the library lacks; and the synthetic
 * notice when what the library holds came from the sandbox.
 */
import type { Context } from "../../core/command-context.js";
import type { ListResult } from "../../core/command.js";
import { rowsList } from "../shared/held-rows.js";
import { UsageError } from "../../core/errors.js";
import { type Library, openLibrary } from "../../library/open.js";
import { columnsOf, kindOf, nearest, tableNames } from "../../library/sql-tables.js";

export { nearestNames } from "../../library/sql-tables.js";

const list = (items: unknown[], fields: string[]): ListResult => rowsList(items, { fields });

/** `--tables`, or `--schema <table>` when `schema` is given. */
export async function explore(ctx: Context, schema: string | undefined): Promise<ListResult> {
  const lib = await openLibrary(ctx, { write: false });
  await syntheticNotice(ctx, lib);
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
