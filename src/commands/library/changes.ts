/**
 * `pep changes`: the change log the syncs wrote, oldest first, as a list through the one
 * output pipeline. `--exit-status` makes "changes found" exit CHANGES_FOUND_EXIT.
 */
import { UsageError } from "../../core/errors.js";
import type { LibraryResource } from "../../api/enums.js";
import type { Context } from "../../core/command-context.js";
import type { Result, Run } from "../../core/command.js";
import { rowsList } from "../shared/held-rows.js";
import type { Queryable } from "../../library/db.js";
import { openLibrary } from "../../library/open.js";
import { loggedValue, sinceCondition } from "../../library/changes-log.js";
import { CHANGES_FOUND_EXIT, type CHANGES_OPTIONS, SYNC_NAMES } from "./defs.js";

export const run: Run<typeof CHANGES_OPTIONS> = async ({ opts }, ctx) => {
  const resource = opts.resource?.trim().toLowerCase().replace(/_/g, "-");
  if (resource !== undefined && !(SYNC_NAMES as readonly string[]).includes(resource))
    throw new UsageError(`--resource must be one of: ${SYNC_NAMES.join(", ")} (got "${opts.resource}")`);
  // Checked before the library is opened: a bad value says so even where there is none.
  await sinceCondition(opts.since, undefined, Date.now());
  if (opts.versions === true && opts.prune === undefined)
    throw new UsageError("--versions says what --prune removes too: it goes with --prune");
  if (opts.prune !== undefined) return prune(opts.prune, opts, ctx);
  const range = opts.from !== undefined || opts.to !== undefined;
  if (range) (await import("./changes-range.js")).checkRange(opts);
  const lib = await openLibrary(ctx, { write: false });
  if (ctx.maxAge !== undefined) {
    const { checkRunFresh } = await import("../../library/freshness.js");
    await checkRunFresh(
      ctx.maxAge,
      lib.db,
      resource === undefined ? undefined : [resource as LibraryResource],
      Date.now(),
    );
  }
  const explore = await import("./sql-explore.js");
  await explore.syntheticNotice(ctx, lib);
  const conds: string[] = [];
  const params: unknown[] = [];
  const since = await sinceCondition(opts.since, lib.db, Date.now());
  if (since) {
    conds.push(since.where);
    params.push(...since.params);
  }
  if (range) {
    const between = await (await import("./changes-range.js")).rangeCondition(lib.db, opts.from!, opts.to);
    conds.push(between.where);
    params.push(...between.params);
  }
  if (opts.resource !== undefined) {
    conds.push("resource = ?");
    params.push(opts.resource.trim().toLowerCase().replace(/_/g, "-"));
  }
  // For a manifest: the reading of the log as run (changePages reads it CHANGES_PAGE rows at
  // a time by seq, in one snapshot), and the walks of the resources it covers.
  const sql = `SELECT seq, at, sync_id, resource, id, kind, field, old_value, new_value FROM changes${conds.length ? ` WHERE ${conds.join(" AND ")}` : ""} ORDER BY seq`;
  await explore.answeredFromLibrary(ctx, lib, {
    query: { sql, params },
    ...(resource === undefined ? {} : { resources: [resource as LibraryResource] }),
  });
  const first = changePages(lib.db, conds, params);
  const rows = await first.next();
  return {
    ...rowsList(shown(rows, first), { resource: "change" }),
    exitCode: opts.exitStatus === true && rows.value !== undefined ? CHANGES_FOUND_EXIT : undefined,
  };
};

/** Rows of the change log read at once: a long log is read page by page, never held whole. */
export const CHANGES_PAGE = 500;

/**
 * The change log's rows that meet `conds`, oldest first, `pageSize` at a time (the next
 * page asked only when the one before is used up), each by `seq` after the last one read:
 * the reader's one snapshot keeps the pages together.
 */
export async function* changePages(
  db: Queryable,
  conds: readonly string[],
  params: readonly unknown[],
  pageSize = CHANGES_PAGE,
): AsyncGenerator<Record<string, unknown>> {
  let after: unknown;
  for (;;) {
    const where = after === undefined ? conds : [...conds, "seq > ?"];
    const page = await db.all<Record<string, unknown>>(
      `SELECT seq, at, sync_id, resource, id, kind, field, old_value, new_value FROM changes${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY seq LIMIT ${pageSize}`,
      after === undefined ? params : [...params, after],
    );
    yield* page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.seq;
  }
}

/** The rows as printed (old and new values as JSON values), the first one already read. */
async function* shown(
  first: IteratorResult<Record<string, unknown>>,
  rest: AsyncIterator<Record<string, unknown>>,
): AsyncGenerator<Record<string, unknown>> {
  for (let r = first; !r.done; r = await rest.next())
    yield { ...r.value, old_value: loggedValue(r.value.old_value), new_value: loggedValue(r.value.new_value) };
}

/** `--prune <age>`: under the sync lock, the log's rows older than the age go; says how many. */
async function prune(age: string, opts: Record<string, unknown>, ctx: Context): Promise<Result> {
  const { parseDuration } = await import("../../library/freshness.js");
  const ms = parseDuration(age, "--prune");
  const others = ["since", "resource", "exitStatus", "from", "to"].filter((k) => opts[k] !== undefined);
  if (others.length > 0)
    throw new UsageError(
      "--prune removes old rows and shows none: it cannot go with --since, --resource, --exit-status, --from or --to",
    );
  const { lockForSync } = await import("../../library/sync/sync-lock.js");
  let release: (() => Promise<void>) | undefined;
  const lib = await openLibrary(ctx, {
    write: true,
    hold: async (l) => {
      release = await lockForSync(l, { wait: true, signal: ctx.io.signal, waiting: ctx.notice, notice: ctx.notice });
    },
  });
  ctx.onCleanup(() => release?.());
  const { pruneLog } = await import("../../library/prune.js");
  const pruned = await pruneLog(lib, new Date(Date.now() - ms).toISOString(), { versions: opts.versions === true });
  return {
    kind: "item",
    resource: "generic",
    data: { pruned_before: pruned.before, changes: pruned.changes, syncs: pruned.syncs, versions: pruned.versions },
  };
}
