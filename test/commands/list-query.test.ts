/**
 * A bare list run (no filters, no --fields, no --cursor) skips the query schema: the only
 * value it sends is the page size, which pagingFrom holds to bounds every list endpoint's
 * schema accepts. These checks keep that true when either side changes.
 */
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../src/api/endpoints.js";
import { checkQuery } from "../../src/api/query-schemas.js";
import { LIMITS } from "../../src/api/enums.js";
import { pagingFrom } from "../../src/commands/shared/list.js";

const lists = Object.values(ENDPOINTS).filter((e) => e.list);

describe("the page size of a bare list", () => {
  it("every list endpoint's schema takes any page size pagingFrom can give for it, and no more", () => {
    expect(lists).not.toEqual([]);
    for (const e of lists) {
      const sizes = [1, pagingFrom({}, e).pageSize, pagingFrom({ all: true }, e).pageSize];
      for (const limit of sizes) expect(checkQuery(e, { limit }).ok, `${e.name} ${limit}`).toBe(true);
      expect(checkQuery(e, { limit: e.maxLimit + 1 }).ok, `${e.name}`).toBe(false);
    }
  });

  it("pagingFrom gives page sizes from 1 to the page maximum, and refuses others naming the flag", () => {
    expect(pagingFrom({}, ENDPOINTS.studies).pageSize).toBe(LIMITS.pageDefault);
    expect(pagingFrom({ limit: "5000" }, ENDPOINTS.studies).pageSize).toBe(LIMITS.pageMax);
    expect(pagingFrom({ all: true }, ENDPOINTS.studies).pageSize).toBe(LIMITS.pageMax);
    expect(pagingFrom({ limit: "1" }, ENDPOINTS.studies).pageSize).toBe(1);
    expect(() => pagingFrom({ pageSize: String(LIMITS.pageMax + 1) }, ENDPOINTS.studies)).toThrow(/--page-size/);
    expect(() => pagingFrom({ pageSize: "0" }, ENDPOINTS.studies)).toThrow(/--page-size/);
    expect(() => pagingFrom({ limit: "0" }, ENDPOINTS.studies)).toThrow(/--limit/);
  });
});
