/**
 * Finding one's way in the library from pep itself: `pep sql --tables` (every table and
 * view, the data first, then views, full-text indexes and pep's bookkeeping, with how many
 * rows and columns each has) and `pep sql --schema <table>` (its columns, types, keys and
 * references), as lists in every output format, from the catalog (library/sql-tables.ts);
 * and the synthetic notice when what the library holds came from the sandbox.
 */
import type { LibraryResource } from "../../api/enums.js";
import type { Context } from "../../core/command-context.js";
import type { ListResult } from "../../core/command.js";
import { rowsList } from "../shared/held-rows.js";
import { UsageError } from "../../core/errors.js";
import { type Library, openLibrary } from "../../library/open.js";
import { catalog, nearest, rowCounts } from "../../library/sql-tables.js";

const list = (items: unknown[], fields: string[]): ListResult => rowsList(items, { fields });

/** `--tables`, or `--schema <table>` when `schema` is given. */
export async function explore(ctx: Context, schema: string | undefined): Promise<ListResult> {
  const lib = await openLibrary(ctx, { write: false });
  await syntheticNotice(ctx, lib);
  // For a manifest: the library described, and its complete walks (a listing, not one statement).
  await answeredFromLibrary(ctx, lib);
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

/**
 * Tells a manifest (`--manifest`) what a library command answered from: the statement as
 * run, if one, and the library's facts with the complete walks of `resources` (all when
 * none), read only when a manifest asks for them.
 */
export async function answeredFromLibrary(
  ctx: Context,
  lib: Library,
  o: { query?: { sql: string; params: unknown[] }; resources?: readonly LibraryResource[] } = {},
): Promise<void> {
  await ctx.answeredFrom?.({
    ...(o.query ? { query: o.query } : {}),
    facts: async () =>
      (await import("../../library/library-facts.js")).libraryFactsHeld(
        { dialect: lib.dialect, location: lib.location, all: (q, p) => lib.db.all(q, p), run: (q) => lib.db.run(q) },
        o.resources,
      ),
  });
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
