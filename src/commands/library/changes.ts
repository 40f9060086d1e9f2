/**
 * `pep changes`: the change log the syncs wrote, oldest first, as a list through the one
 * output pipeline. `--exit-status` makes "changes found" exit CHANGES_FOUND_EXIT.
 */
import { UsageError } from "../../core/errors.js";
import type { LibraryResource } from "../../api/enums.js";
import type { Context } from "../../core/command-context.js";
import type { Result, Run } from "../../core/command.js";
import { rowsList } from "../shared/held-rows.js";
import { openLibrary } from "../../library/open.js";
import { loggedValue, sinceCondition } from "../../library/changes-log.js";
import { CHANGES_FOUND_EXIT, type CHANGES_OPTIONS, SYNC_NAMES } from "./defs.js";

export const run: Run<typeof CHANGES_OPTIONS> = async ({ opts }, ctx) => {
  const resource = opts.resource?.trim().toLowerCase().replace(/_/g, "-");
  if (resource !== undefined && !(SYNC_NAMES as readonly string[]).includes(resource))
    throw new UsageError(`--resource must be one of: ${SYNC_NAMES.join(", ")} (got "${opts.resource}")`);
  // Checked before the library is opened: a bad value says so even where there is none.
  await sinceCondition(opts.since, undefined, Date.now());
  if (opts.prune !== undefined) return prune(opts.prune, opts, ctx);
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
  await (await import("./sql-explore.js")).syntheticNotice(ctx, lib);
  const conds: string[] = [];
  const params: unknown[] = [];
  const since = await sinceCondition(opts.since, lib.db, Date.now());
  if (since) {
    conds.push(since.where);
    params.push(...since.params);
  }
  if (opts.resource !== undefined) {
    conds.push("resource = ?");
    params.push(opts.resource.trim().toLowerCase().replace(/_/g, "-"));
  }
  const rows = await lib.db.all<Record<string, unknown>>(
    `SELECT seq, at, sync_id, resource, id, kind, field, old_value, new_value FROM changes${conds.length ? ` WHERE ${conds.join(" AND ")}` : ""} ORDER BY seq`,
    params,
  );
  const items = rows.map((r) => ({ ...r, old_value: loggedValue(r.old_value), new_value: loggedValue(r.new_value) }));
  return {
    ...rowsList(items, { resource: "change" }),
    exitCode: opts.exitStatus === true && items.length > 0 ? CHANGES_FOUND_EXIT : undefined,
  };
};

/** `--prune <age>`: under the sync lock, the log's rows older than the age go; says how many. */
async function prune(age: string, opts: Record<string, unknown>, ctx: Context): Promise<Result> {
  const { parseDuration } = await import("../../library/freshness.js");
  const ms = parseDuration(age, "--prune");
  const others = ["since", "resource", "exitStatus"].filter((k) => opts[k] !== undefined);
  if (others.length > 0)
    throw new UsageError(
      "--prune removes old rows and shows none: it cannot go with --since, --resource or --exit-status",
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
  const pruned = await pruneLog(lib, new Date(Date.now() - ms).toISOString());
  return {
    kind: "item",
    resource: "generic",
    data: { pruned_before: pruned.before, changes: pruned.changes, syncs: pruned.syncs },
  };
}
