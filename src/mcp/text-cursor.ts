/**
 * A cursor that starts inside a page. A list's text is bounded (`result.ts`): when it
 * holds fewer items than the call returned, the cursor it gives continues from the
 * first item it left out, so a client that passes only the text to the model sees every
 * item once. The API's cursors mark where a page starts; this one is the cursor of the
 * page that item came from (none for the first page) and the item's place in it, so the
 * next call asks for that page again and leaves out the items before it.
 */
import { UsageError } from "../core/errors.js";

/** Marks a cursor of pep's own; an API cursor never starts with it (the API's are opaque, but this is no word of theirs). */
const PREFIX = "pep-text.";

export interface TextPlace {
  /** The API cursor of the page the item came from; undefined for the list's first page. */
  cursor: string | undefined;
  /** How many items of that page come before it. */
  skip: number;
}

export function textCursor(place: TextPlace): string {
  return PREFIX + Buffer.from(JSON.stringify({ c: place.cursor ?? null, s: place.skip })).toString("base64url");
}

/** Where a call's `cursor` starts: an API cursor as given, or the place a text cursor names. */
export function placeOf(cursor: unknown): TextPlace {
  if (typeof cursor !== "string" || !cursor.startsWith(PREFIX))
    return { cursor: cursor === undefined ? undefined : String(cursor), skip: 0 };
  try {
    const v = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), "base64url").toString("utf8")) as {
      c?: unknown;
      s?: unknown;
    };
    if ((v.c === null || typeof v.c === "string") && Number.isInteger(v.s) && (v.s as number) >= 0)
      return { cursor: v.c ?? undefined, skip: v.s as number };
  } catch {
    // said below
  }
  throw new UsageError(
    "cursor is not one this server gave: pass next_cursor, or the cursor a result's text gives, as it came",
  );
}
