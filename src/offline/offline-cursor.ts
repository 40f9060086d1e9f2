/**
 * Cursors of offline lists: opaque to the user as the API's are, and made so that one
 * cannot be mistaken for another. A cursor holds the position the next page starts after,
 * a digest of the listing it belongs to (path and filters) and the sync it was made in:
 * replayed with other filters, after another sync, or taken from the API, it is refused
 * (exit 2) rather than read as something else.
 */
import { createHash } from "node:crypto";
import { ApiError } from "../core/errors.js";

/** Every offline cursor starts with this: an API cursor is told apart at once. */
const PREFIX = "lib1.";

/** Query parameters that do not change what a listing holds or its order. */
const NOT_FILTERS = new Set(["cursor", "limit"]);

/** A short digest of a listing: its path and its filters, in a fixed order. */
export function listingDigest(path: string, query: Record<string, string>): string {
  const filters = Object.keys(query)
    .filter((k) => !NOT_FILTERS.has(k))
    .sort()
    .map((k) => [k, query[k]]);
  return createHash("sha256")
    .update(JSON.stringify([path, filters]))
    .digest("base64url")
    .slice(0, 12);
}

const check = (payload: string) =>
  createHash("sha256").update(`pep-offline-cursor\n${payload}`).digest("base64url").slice(0, 12);

export function encodeCursor(after: number, listing: string, syncId: string): string {
  const payload = Buffer.from(JSON.stringify({ a: after, l: listing, s: syncId })).toString("base64url");
  return `${PREFIX}${payload}.${check(payload)}`;
}

/**
 * A cursor the library did not make: exit 2, told as the API tells its own `invalid_cursor`
 * (a 400) so that a `--file` export finishing from a partial kept by an online run starts
 * over, as it does when the API refuses a stored cursor; described without an HTTP status.
 */
export class OfflineCursorError extends ApiError {
  constructor(why: string) {
    super({ status: 400, code: "invalid_cursor", message: `--cursor: ${why}` });
    this.hints = ["Start again without --cursor, or with the cursor an offline run of the same command printed."];
  }
  override describe(): string {
    return this.message;
  }
}

/** The position a cursor resumes after; a cursor not made for this listing and sync is refused. */
export function decodeCursor(cursor: string, listing: string, syncId: string): number {
  const refuse = (why: string) => new OfflineCursorError(why);
  if (!cursor.startsWith(PREFIX))
    throw refuse("this cursor is the API's, not the library's; an offline list takes only cursors it printed");
  const body = cursor.slice(PREFIX.length);
  const dot = body.indexOf(".");
  const payload = dot > 0 ? body.slice(0, dot) : "";
  if (payload === "" || body.slice(dot + 1) !== check(payload)) throw refuse("this cursor is not valid");
  let parsed: { a?: unknown; l?: unknown; s?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) ?? {};
  } catch {
    throw refuse("this cursor is not valid");
  }
  if (typeof parsed.a !== "number" || !Number.isInteger(parsed.a)) throw refuse("this cursor is not valid");
  if (parsed.l !== listing) throw refuse("this cursor belongs to another list or other filters");
  if (parsed.s !== syncId)
    throw refuse("the library was synced again since this cursor was printed, so its place in the list is gone");
  return parsed.a;
}
