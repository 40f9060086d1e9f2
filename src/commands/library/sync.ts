/** `pep sync [resource...]`: fills the local library (library/sync/sync.ts). */
import { UsageError } from "../../core/errors.js";
import { cleanLine } from "../../core/sanitize.js";
import { capYoungGeneration } from "../../core/young-generation.js";
import { CHANGES_FOUND_EXIT } from "./defs.js";
import type { Run } from "../../core/command.js";
import { runSync } from "../../library/sync/sync.js";
import { LIBRARY_RESOURCES, type LibraryResource } from "../../api/enums.js";
import { isLibraryResource } from "../../library/schema.js";
import type { SYNC_OPTIONS } from "./defs.js";

/** The resources named, each once, in the order the library syncs them; all of them when none is. */
export function syncResources(args: readonly string[]): LibraryResource[] {
  const named = args.map((a) => a.trim().toLowerCase().replace(/_/g, "-"));
  for (const n of named) {
    if (!isLibraryResource(n))
      throw new UsageError(`pep sync: unknown resource "${n}"; it takes: ${LIBRARY_RESOURCES.join(", ")}`);
  }
  return named.length === 0 ? [...LIBRARY_RESOURCES] : LIBRARY_RESOURCES.filter((r) => named.includes(r));
}

export const run: Run<typeof SYNC_OPTIONS> = async ({ args, opts }, ctx) => {
  const resources = syncResources(args);
  if (opts.status === true) {
    if (opts.full === true || opts.studyDetails !== undefined)
      throw new UsageError("--status syncs nothing: it cannot go with --full, --study-details or --no-study-details");
    return (await import("./sync-status.js")).statusResult(ctx, resources);
  }
  // Thousands of answers: memory that does not grow with the API's size.
  const uncap = capYoungGeneration();
  const summary = await runSync(
    ctx,
    {
      resources,
      named: args.length > 0,
      full: opts.full === true,
      wait: opts.wait !== false,
      studyDetails: opts.studyDetails,
      rebind: opts.rebind === true,
      // Said even under -q, as an export's "starting over" is: what the sync did differently.
      notice: (line) => ctx.io.stderr.write(`${cleanLine(line)}\n`),
    },
    { now: () => Date.now() },
  ).finally(uncap);
  const exitCode = opts.exitStatus === true && summary.changes_found ? CHANGES_FOUND_EXIT : undefined;
  return { kind: "item", resource: "generic", data: summary, exitCode };
};
