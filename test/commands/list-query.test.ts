/**
 * A bare list run (no filters, no --fields, no --cursor) skips the query schema: the only
 * value it sends is the page size, which pagingFrom holds to bounds every list endpoint's
 * schema accepts. These checks keep that true when either side changes.
 */
import { describe, expect, it } from "vitest";
import { checkQuery, ENDPOINTS } from "../../src/api/endpoints.js";
import { LIMITS } from "../../src/api/enums.js";
import { pagingFrom } from "../../src/commands/shared/list.js";

const lists = Object.values(ENDPOINTS).filter((e) => e.list);

describe("the page size of a bare list", () => {
  it("every list endpoint's schema takes any page size pagingFrom can give", () => {
    expect(lists.length).toBeGreaterThanOrEqual(8);
    for (const e of lists)
      for (const limit of [1, 20, LIMITS.pageMax]) expect(checkQuery(e, { limit }).ok, `${e.name} ${limit}`).toBe(true);
  });

  it("pagingFrom gives page sizes from 1 to the page maximum, and refuses others naming the flag", () => {
    expect(pagingFrom({}).pageSize).toBe(LIMITS.pageDefault);
    expect(pagingFrom({ limit: "5000" }).pageSize).toBe(LIMITS.pageMax);
    expect(pagingFrom({ all: true }).pageSize).toBe(LIMITS.pageMax);
    expect(pagingFrom({ limit: "1" }).pageSize).toBe(1);
    expect(() => pagingFrom({ pageSize: String(LIMITS.pageMax + 1) })).toThrow(/--page-size/);
    expect(() => pagingFrom({ pageSize: "0" })).toThrow(/--page-size/);
    expect(() => pagingFrom({ limit: "0" })).toThrow(/--limit/);
  });
});
