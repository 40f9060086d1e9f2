/** Which pager a terminal gets: PEP_PAGER, the profile's, PAGER, else less; none under TERM=dumb. */
import { describe, expect, it } from "vitest";
import { pagerCommand } from "../../src/core/io.js";

const PATH = process.env.PATH ?? "/usr/bin:/bin";

describe("the pager chosen", () => {
  it("takes PEP_PAGER, then the profile's, then PAGER; cat or empty means none", () => {
    expect(pagerCommand({ PATH, PEP_PAGER: "most", PAGER: "more" }, "less -S")?.command).toBe("most");
    expect(pagerCommand({ PATH, PAGER: "more" }, "less -S")?.command).toBe("less -S");
    expect(pagerCommand({ PATH, PAGER: "more" }, undefined)?.command).toBe("more");
    expect(pagerCommand({ PATH, PAGER: "cat" }, undefined)).toBeUndefined();
    expect(pagerCommand({ PATH, PEP_PAGER: "" }, "less")).toBeUndefined();
  });

  it("gives a TERM=dumb terminal none, unless PEP_PAGER names one", () => {
    expect(pagerCommand({ PATH, TERM: "dumb" }, undefined)).toBeUndefined();
    expect(pagerCommand({ PATH, TERM: "dumb", PAGER: "less" }, "less -S")).toBeUndefined();
    expect(pagerCommand({ PATH, TERM: "dumb", PEP_PAGER: "cat -v" }, undefined)?.command).toBe("cat -v");
  });
});
