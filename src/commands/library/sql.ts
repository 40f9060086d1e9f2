/**
 * `pep sql "<query>"`: one read-only statement over the library, its rows through the
 * output pipeline as the database hands them over, page by page. The database itself
 * refuses a second statement and any write (library/pg-read.ts, library/sqlite-child.ts);
 * a first word that is not a query's is told before the library opens. `--timeout` bounds
 * the time the database spends on it; Ctrl-C stops it at once. A BLOB (bytea) is shown as
 * its bytes in hex, `\x0aff`, as psql does. An error names where in the query it is; all
 * of these exit 2. `--tables` and `--schema` describe the library instead
 * (commands/library/sql-explore.ts).
 */
import { UsageError } from "../../core/errors.js";
import { closest } from "../../core/suggest.js";
import type { Run } from "../../core/command.js";
import type { Row } from "../../library/db.js";
import { libraryTarget } from "../../library/location.js";
import { openLibrary } from "../../library/open.js";
import { takeEarlyRunner } from "../../library/sqlite-runner.js";
import { checkReadOnly, sqlError } from "../../library/sql-check.js";
import type { SQL_OPTIONS } from "./defs.js";

/** A value as `pep sql` prints it: bytes as `\x` and their hex, one cell, as psql shows bytea. */
export function shownValue(v: unknown): unknown {
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex")}`;
  return v;
}

function shownRow(row: Row): Row {
  for (const k of Object.keys(row)) if (row[k] instanceof Uint8Array) row[k] = shownValue(row[k]);
  return row;
}

export const run: Run<typeof SQL_OPTIONS> = async ({ args, opts }, ctx) => {
  if (opts.tables === true || opts.schema !== undefined) {
    if (args[0] !== undefined) throw new UsageError("pep sql takes a query or --tables or --schema <table>, not both");
    const { explore } = await import("./sql-explore.js");
    const listed = await explore(ctx, opts.schema);
    checkFields(ctx.fields, listed.fields ?? []);
    return listed;
  }
  if (args[0] === undefined)
    throw new UsageError(
      'pep sql needs a query, such as "SELECT COUNT(*) FROM studies" (or --tables to see the tables)',
    );
  const query: string = args[0];
  checkReadOnly(query);
  const cfg = await ctx.config();
  // On SQLite the query runs in a process of its own: started now (or before the program
  // loaded, cli/sql-early.ts), it is ready when the library is.
  if (libraryTarget(cfg.db, ctx.io.env, ctx.io.cwd, cfg.profile).kind === "sqlite")
    ctx.onCleanup(await (await import("../../library/sqlite-read.js")).warmSqliteReader());
  else takeEarlyRunner()?.kill();
  const lib = await openLibrary(ctx, { write: false });
  if (ctx.maxAge !== undefined) {
    const { checkRunFresh, resourcesNamed } = await import("../../library/freshness.js");
    await checkRunFresh(ctx.maxAge, lib.db, resourcesNamed(query), Date.now());
  }
  const { answeredFromLibrary, syntheticNotice } = await import("./sql-explore.js");
  await syntheticNotice(ctx, lib);
  // For a manifest: the statement as run and the library's current complete walks.
  await answeredFromLibrary(ctx, lib, { query: { sql: query, params: [] } });
  let answer: Awaited<ReturnType<typeof lib.db.query>>;
  ctx.debug(`sql: running the query on ${lib.location}, for at most ${cfg.timeoutSeconds} s of the database's time`);
  try {
    answer = await lib.db.query(query, { signal: ctx.io.signal, timeoutMs: cfg.timeoutSeconds * 1000 });
  } catch (err) {
    throw await told(err, query, lib);
  }
  const { columns, rows } = answer;
  checkFields(ctx.fields, columns);
  async function* each(): AsyncGenerator<unknown> {
    try {
      for await (const row of rows) yield shownRow(row);
    } catch (err) {
      throw await told(err, query, lib);
    }
  }
  return {
    kind: "list",
    resource: "generic",
    items: each(),
    meta: () => undefined,
    nextCursor: () => undefined,
    fields: columns,
    // Rows as the database hands them over: no pages to count.
    spinner: { label: "Running the query", unit: ["row", "rows"] },
  };
};

/** `--fields` names only columns the answer has (exit 2 with the nearest, before any row is printed). */
function checkFields(fields: readonly string[] | undefined, columns: readonly string[]): void {
  for (const f of fields ?? []) {
    if (columns.includes(f)) continue;
    const near = closest(f, columns);
    throw new UsageError(`--fields: the answer has no column "${f}"`, {
      hints: [near ? `did you mean ${near}? Its columns: ${columns.join(", ")}` : `Its columns: ${columns.join(", ")}`],
    });
  }
}

/** The database's error as exit 2 with its place, and for an unknown table or column the nearest names. */
async function told(err: unknown, query: string, lib: Awaited<ReturnType<typeof openLibrary>>): Promise<unknown> {
  if (!(err instanceof Error) || "exitCode" in err) return err;
  // The database's own failures (gone, a grant missing, busy) keep their library codes.
  const { libraryFailure } = await import("../../library/db-errors.js");
  // (Not a statement stopped by the time limit: that is told as pep sql's own, below.)
  const failure =
    (err as { code?: unknown }).code === "57014" ? err : libraryFailure(err, lib.dialect, lib.location, true);
  if (failure !== err) return failure;
  const usage = sqlError(err, query, lib.dialect);
  if (lib.dialect === "postgres" && /^\s*pragma\b/i.test(query))
    return new UsageError(usage.message, {
      hints: ["PRAGMA is SQLite's: on PostgreSQL, pep sql --schema <table> lists a table's columns"],
    });
  const { nearestNames } = await import("../../library/sql-tables.js");
  const hint = await nearestNames(lib, err.message).catch(() => undefined);
  return hint ? new UsageError(usage.message, { hints: [...(usage.hints ?? []), hint] }) : usage;
}
