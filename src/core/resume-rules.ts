/**
 * The rules by which a run cut short is continued, shared by a `--file` export (its
 * partial: cli/partial-run.ts) and `pep sync` (a resource's walk: library/sync/walk.ts),
 * docs/cli.md#resuming-an-export: what is kept is continued only while it is young enough,
 * while the first and last kept pages, asked again with their own cursors, hold the same
 * items (ids in order, and content), and while the API takes the stored cursor.
 */
import { cleanLine } from "./sanitize.js";
import { UsageError } from "./errors.js";

/** Statuses by which the API refuses a cursor it gave: malformed, unknown, expired, unprocessable. */
export const CURSOR_REFUSALS: ReadonlySet<number> = new Set([400, 404, 410, 422]);

/** How old a kept run may be and still be continued, when nothing says otherwise. */
export const DEFAULT_RESUME_MAX_AGE = "24h";

const UNITS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A resume age (`30m`, `24h`, `7d`; `0`: never continue) in ms; `where` names its source in the error (exit 2). */
export function parseResumeMaxAge(value: string, where: string): number {
  const m = /^\s*(\d{1,9})\s*([smhd])\s*$/i.exec(value);
  if (m) return Number(m[1]) * UNITS[m[2]!.toLowerCase()]!;
  if (/^\s*0+\s*$/.test(value)) return 0;
  throw new UsageError(
    `${where} takes a duration: a whole number with s, m, h or d (30m, 24h, 7d; 0 never continues a partial), got "${cleanLine(value)}"`,
  );
}

/** PEP_RESUME_MAX_AGE, else the default, in ms (what a run without `--resume-max-age` uses). */
export function envResumeMaxAge(env: Record<string, string | undefined>): number {
  const v = env.PEP_RESUME_MAX_AGE;
  return v !== undefined && v !== ""
    ? parseResumeMaxAge(v, "PEP_RESUME_MAX_AGE")
    : parseResumeMaxAge(DEFAULT_RESUME_MAX_AGE, "the default");
}

/** "3h", "2d", "45m", "12s": an age as the notices say it. */
export function ageText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  if (s < 172_800) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86_400)}d`;
}

/** Why what was kept since `since` (ISO time) is too old to continue at `now` ("kept 30h ago, past …"), or undefined. */
export function tooOld(since: string, now: number, maxAge: number, limit = "the resume age"): string | undefined {
  const age = now - Date.parse(since);
  if (age >= -60_000 && age <= maxAge) return undefined;
  return `kept ${Number.isFinite(age) ? `${ageText(age)} ago` : "at an unknown time"}, past ${limit} (${ageText(maxAge)})`;
}

/** A kept page and the same page asked again: its ids in order and a digest of its items. */
export interface PageLook {
  ids: readonly string[];
  digest: string;
}

/** Why a kept page (`which`: first, last) no longer lines up with the same page asked again, or undefined. */
export function pageMoved(which: string, kept: PageLook, now: PageLook): string | undefined {
  if (now.ids.length !== kept.ids.length || now.ids.some((id, i) => id !== kept.ids[i]))
    return `the ${which} kept page now holds other items (data was added or removed since the cut)`;
  if (now.digest !== kept.digest) return `the items of the ${which} kept page changed since the cut`;
  return undefined;
}
