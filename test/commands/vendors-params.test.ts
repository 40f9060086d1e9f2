import { describe, expect, it } from "vitest";
import { upperCode } from "../../src/api/params/codes.js";
import { compareIds, minRating } from "../../src/api/params/vendor-values.js";
import { UsageError } from "../../src/core/errors.js";

describe("vendor flag values", () => {
  it("upper-cases country and destination codes and leaves absent ones absent", () => {
    expect(upperCode("us")).toBe("US");
    expect(upperCode(" us-ca ")).toBe("US-CA");
    expect(upperCode(undefined)).toBeUndefined();
  });

  it.each(["0", "5", "4.5", "4.50", "0.0", ".5", "3."])("accepts --min-rating %s as typed", (v) => {
    expect(minRating(v)).toBe(v);
  });

  it.each(["-0.1", "5.1", "", " ", "abc", "0x3", "1e0", "-0", "NaN", "Infinity", "4,5"])(
    "refuses --min-rating %j",
    (v) => {
      expect(() => minRating(v)).toThrow(UsageError);
      expect(() => minRating(v)).toThrow(/--min-rating must be a number from 0 to 5/);
    },
  );

  it("takes 2 to 4 compare ids, as words or comma-separated", () => {
    expect(compareIds(["a", "b"])).toEqual(["a", "b"]);
    expect(compareIds(["a,b", "c"])).toEqual(["a", "b", "c"]);
    expect(compareIds(["a", "b", "c", "d"])).toEqual(["a", "b", "c", "d"]);
  });

  it.each([
    [["a"], /2 to 4 vendor ids or slugs \(got 1\)/],
    [["a", "b", "c", "d", "e"], /got 5/],
    [["a,", "b"], /empty id/],
    [["acme", "ACME"], /twice/],
  ])("refuses compare ids %j", (ids, message) => {
    expect(() => compareIds(ids)).toThrow(message);
  });
});
