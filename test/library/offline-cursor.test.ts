/**
 * Offline cursors: opaque, bound to their listing and their sync, and refused as the API
 * refuses a cursor (400 invalid_cursor, exit 2), so that a `--file` export finishing from a
 * partial kept online starts over instead of failing on every run.
 */
import { describe, expect, it } from "vitest";
import { ApiError, exitCodeFor } from "../../src/core/errors.js";
import { decodeCursor, encodeCursor, listingDigest } from "../../src/offline/offline-cursor.js";

describe("offline cursors", () => {
  const listing = listingDigest("/studies", { peptide: "x", limit: "20" });

  it("come back to the place they were made for, whatever the page size", () => {
    const c = encodeCursor(41, listing, "7");
    expect(c).toMatch(/^lib1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c, listingDigest("/studies", { peptide: "x", limit: "100" }), "7")).toBe(41);
  });

  it("are refused as an invalid_cursor 400 (exit 2) from the API, another listing, another sync, or altered", () => {
    const c = encodeCursor(41, listing, "7");
    const cases: Array<[string, string, string, RegExp]> = [
      ["eyJvIjoyMH0.abc", listing, "7", /the API's, not the library's/],
      [c, listingDigest("/studies", { peptide: "y" }), "7", /another list or other filters/],
      [c, listing, "8", /synced again/],
      [`${c.slice(0, -2)}xx`, listing, "7", /not valid/],
    ];
    for (const [cursor, l, sync, message] of cases) {
      let err: unknown;
      try {
        decodeCursor(cursor, l, sync);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(400);
      expect((err as ApiError).code).toBe("invalid_cursor");
      expect(exitCodeFor(err)).toBe(2);
      expect((err as ApiError).describe()).toMatch(message);
      expect((err as ApiError).describe()).not.toMatch(/HTTP/);
    }
  });
});
