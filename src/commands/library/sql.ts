/**
 * `pep sql "<query>"`: one read-only statement over the library, its rows through the
 * output pipeline. Refused before it reaches the database: anything but SELECT, WITH,
 * VALUES or EXPLAIN, and a second statement. The database refuses any write besides (the
 * SQLite file is opened read-only with `query_only`; PostgreSQL runs it in a READ ONLY
 * transaction). An error names where in the query it is; all of these exit 2.
 */
import { UsageError } from "../../core/errors.js";
import type { Run } from "../../core/command.js";
import { openLibrary } from "../../library/open.js";
import { checkReadOnly, sqlError } from "../../library/sql-check.js";

export const run: Run = async ({ args }, ctx) => {
  const query = args[0] ?? "";
  checkReadOnly(query);
  const lib = await openLibrary(ctx, { write: false });
  if (ctx.maxAge !== undefined) {
    const { checkRunFresh, resourcesNamed } = await import("../../library/freshness.js");
    await checkRunFresh(ctx.maxAge, lib.db, resourcesNamed(query), Date.now());
  }
  let answer: Awaited<ReturnType<typeof lib.db.query>>;
  try {
    answer = await lib.db.query(query);
  } catch (err) {
    throw sqlError(err, query, lib.dialect);
  }
  const { columns, rows } = answer;
  async function* each(): AsyncGenerator<unknown> {
    try {
      yield* rows;
    } catch (err) {
      throw sqlError(err, query, lib.dialect);
    }
  }
  // A statement without columns is one that would write (WITH … DELETE): it is not run.
  if (columns.length === 0)
    throw new UsageError("pep sql only reads: the statement returns no rows, as one that writes does, and was not run");
  return {
    kind: "list",
    resource: "generic",
    items: each(),
    meta: () => undefined,
    nextCursor: () => undefined,
    fields: columns,
  };
};
