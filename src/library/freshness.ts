/**
 * `--max-age <duration>`: a reader (an `--offline` answer, `pep sql`, `pep changes`)
 * refuses to answer from a resource whose last complete walk is older than that, or that
 * no walk ever read, so a CI job need not do its own date arithmetic on the syncs table.
 * Exit 6 with `error.code` `library_stale`: the data is not to be had fresh right now, and
 * `pep sync` (named in the hint) is what brings it.
 */
import { LibraryError, UsageError } from "../core/errors.js";
import type { Queryable } from "./db.js";
import { LIBRARY_RESOURCES, type LibraryResource } from "../api/enums.js";
import { LIBRARY } from "./schema.js";
import { ageAt, humanAge, lastWalks } from "./status.js";

const UNITS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };

/** A duration such as `7d`, `12h`, `30m`, `90s` or `2w`, in milliseconds; undefined when it is not one. */
export function durationMs(value: string): number | undefined {
  const m = /^(\d+)\s*([smhdw])$/i.exec(value.trim());
  return m ? Number(m[1]) * UNITS[m[2]!.toLowerCase()]! : undefined;
}

/** `durationMs`, more than zero, or a usage error: `flag` names it. */
export function parseDuration(value: string, flag: string): number {
  const ms = durationMs(value);
  if (ms === undefined || ms <= 0)
    throw new UsageError(
      `${flag} must be a duration: a whole number and a unit, s, m, h, d or w (30m, 12h, 7d, 2w) (got "${value}")`,
    );
  return ms;
}

/** A resource too old for `--max-age` (exit 6, `library_stale`). */
export class LibraryStaleError extends LibraryError {
  constructor(message: string, resources: readonly LibraryResource[]) {
    super("library_stale", message, {
      hints: [
        `run \`pep sync ${resources.join(" ")}\` while online to bring ${resources.length === 1 ? "it" : "them"} up to date`,
      ],
    });
  }
}

/**
 * Why `resource` is too old for `maxAgeMs` at `now` (its last complete walk ended at
 * `finishedAt`, or never), or undefined when it is fresh enough.
 */
export function staleness(
  resource: LibraryResource,
  finishedAt: string | undefined,
  maxAgeMs: number,
  now: number,
): string | undefined {
  if (finishedAt === undefined) return `${resource} never synced`;
  if (now - Date.parse(finishedAt) <= maxAgeMs) return undefined;
  return `${resource} synced ${humanAge(ageAt(finishedAt, now))} ago (${finishedAt})`;
}

/** The refusal of `--max-age` for the stale resources, each with why. */
export function staleError(maxAgeMs: number, stale: readonly { resource: LibraryResource; why: string }[]) {
  return new LibraryStaleError(
    `--max-age ${humanAge(maxAgeMs / 1000)}: ${stale.map((s) => s.why).join("; ")}`,
    stale.map((s) => s.resource),
  );
}

/**
 * Refuses when any of `resources` was last read whole longer than `maxAgeMs` before `now`,
 * or never; names every one that is, with its age.
 */
export async function checkFresh(
  db: Pick<Queryable, "all">,
  resources: readonly LibraryResource[],
  maxAgeMs: number,
  now: number,
): Promise<void> {
  const walks = await lastWalks(db);
  const stale: { resource: LibraryResource; why: string }[] = [];
  for (const resource of resources) {
    const why = staleness(resource, walks.get(resource)?.finished_at, maxAgeMs, now);
    if (why) stale.push({ resource, why });
  }
  if (stale.length > 0) throw staleError(maxAgeMs, stale);
}

/**
 * `--max-age` for a command that reads the library's tables itself (`pep sql`, `pep
 * changes`): checks `resources` (or, when undefined, every resource some walk has read)
 * when the run was given one.
 */
export async function checkRunFresh(
  maxAge: string | undefined,
  db: Pick<Queryable, "all">,
  resources: readonly LibraryResource[] | undefined,
  now: number,
): Promise<void> {
  if (maxAge === undefined) return;
  const ms = parseDuration(maxAge, "--max-age");
  await checkFresh(db, resources ?? [...(await lastWalks(db)).keys()], ms, now);
}

/** The resources whose tables a query names (for `--max-age`; what it reads is the engine's business). */
export function resourcesNamed(query: string): LibraryResource[] {
  const words = new Set(query.toLowerCase().match(/[a-z_]+/g) ?? []);
  return LIBRARY_RESOURCES.filter((r) => words.has(LIBRARY[r].table));
}
