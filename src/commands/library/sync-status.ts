/**
 * `pep sync --status`: the library at a glance, one row per resource (its items, the sync
 * whose complete walk last read it, when, and how long ago) through the usual output, so
 * a script reads it as JSON or CSV; the library's place, engine, size and schema version
 * go on every row, and on a terminal in one line above the table.
 */
import type { Context } from "../../core/command-context.js";
import type { Result } from "../../core/command.js";
import { rowsList } from "../shared/held-rows.js";
import { openLibrary } from "../../library/open.js";
import type { LibraryResource } from "../../api/enums.js";
import { libraryStatus } from "../../library/status.js";

/** A size for people: 1.2 MB, 640 kB, 12 B. */
function humanBytes(n: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

export async function statusResult(ctx: Context, resources: readonly LibraryResource[]): Promise<Result> {
  const lib = await openLibrary(ctx, { write: false });
  const status = await libraryStatus(lib, Date.now());
  ctx.notice(
    `library ${status.library} (${status.dialect === "sqlite" ? "SQLite" : "PostgreSQL"}, ${humanBytes(status.size_bytes)}, schema version ${status.schema_version})`,
  );
  const rows = status.resources
    .filter((r) => resources.includes(r.resource))
    .map((r) => ({
      ...r,
      library: status.library,
      dialect: status.dialect,
      size_bytes: status.size_bytes,
      schema_version: status.schema_version,
    }));
  return rowsList(rows, { fields: ["resource", "items", "sync_id", "synced_at", "age"] });
}
