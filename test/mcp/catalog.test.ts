/**
 * The tool catalog against the endpoint table it is built from, and the pieces of a
 * result that need no server: cleaning, key redaction, the text rendering's bounds.
 */
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../src/api/endpoints.js";
import { TOOLS } from "../../src/mcp/catalog.js";
import { shapeOf, inputSchema } from "../../src/mcp/schemas.js";
import { cleanDeep, itemText, listText, noticesOf, redactor } from "../../src/mcp/result.js";

describe("tool catalog", () => {
  it("each tool's scope, list kind and path argument are its endpoint's", () => {
    for (const t of TOOLS) {
      const e = ENDPOINTS[t.endpoint];
      expect(t.scope, t.name).toBe(e.scope);
      expect(t.list, t.name).toBe(e.list);
      expect(e.path.includes("{"), t.name).toBe(t.path !== undefined);
      if (t.path) expect(e.path, t.name).toContain(`{${t.path}}`);
    }
  });

  it("every argument is a parameter of the endpoint; lists take limit and cursor", () => {
    for (const t of TOOLS) {
      const shape = shapeOf(ENDPOINTS[t.endpoint]);
      for (const p of t.params) expect(Object.keys(shape), `${t.name}.${p}`).toContain(p);
      if (t.list) expect(t.params, t.name).toEqual(expect.arrayContaining(["limit", "cursor"]));
    }
  });

  it("covers every read endpoint but the index and health", () => {
    const covered = new Set(TOOLS.map((t) => t.endpoint));
    const missing = Object.keys(ENDPOINTS).filter((n) => !covered.has(n as never));
    expect(missing.sort()).toEqual(["health", "index"]);
  });

  it("argument schemas check as the endpoint does: bounds of the table, unknown arguments refused", () => {
    const studies = inputSchema(TOOLS.find((t) => t.name === "list_studies")!);
    expect(studies.safeParse({ limit: 100, year_from: 1900 }).success).toBe(true);
    expect(studies.safeParse({ limit: 101 }).success).toBe(false);
    expect(studies.safeParse({ year_to: 2101 }).success).toBe(false);
    expect(studies.safeParse({ evidence: "x" }).success).toBe(false);
    const compare = inputSchema(TOOLS.find((t) => t.name === "compare_vendors")!);
    expect(compare.safeParse({ ids: ["a", "b", "c", "d"] }).success).toBe(true);
    expect(compare.safeParse({ ids: ["a", "b", "c", "d", "e"] }).success).toBe(false);
  });
});

describe("results", () => {
  const redact = redactor("sk_1234567890", "…7890");

  it("removes escape sequences, control characters and bidi overrides from values and keys, and the key in either form", () => {
    const cleaned = cleanDeep(
      {
        "na\u0007me": ["a\u009b31mb\u001b]52;c;eA==\u0007", { deep: "x\u202ey sk_1234567890 sk_1234567890" }],
        url: `q=${encodeURIComponent("sk_1234567890")}`,
        n: 3,
        none: null,
      },
      redact,
    );
    expect(cleaned).toEqual({ name: ["ab", { deep: "xy …7890 …7890" }], url: "q=…7890", n: 3, none: null });
  });

  it("a key named __proto__ stays a field and changes no prototype", () => {
    const cleaned = cleanDeep(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'), redact) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
    expect(Object.keys(cleaned)).toEqual(["__proto__", "a"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("notices: research always, sandbox only when meta.sandbox is true, the disclosure as the output layer reads it", () => {
    const disclosure = (m: Record<string, unknown> | undefined) =>
      typeof m?.affiliate_disclosure === "string" ? m.affiliate_disclosure : undefined;
    expect(noticesOf({}, redact, disclosure)).toEqual({
      research_notice: expect.stringMatching(/^Research and education only/),
      sandbox: false,
    });
    expect(noticesOf({ sandbox: "yes" }, redact, disclosure).sandbox).toBe(false);
    expect(
      noticesOf({ sandbox: true, affiliate_disclosure: "we may earn sk_1234567890" }, redact, disclosure),
    ).toMatchObject({
      sandbox: true,
      sandbox_notice: expect.stringMatching(/^SYNTHETIC SANDBOX DATA/),
      affiliate_disclosure: "we may earn …7890",
    });
  });

  it("the text rendering is short: one line per item, long values cut, not_documented in words", () => {
    const notices = { research_notice: "R", sandbox: false };
    const text = listText("peptides", [{ id: "a", name: "A", evidence: { level: "not_documented" } }], "c1", notices);
    expect(text.split("\n")[0]).toBe('1 peptides (more remain: call again with cursor "c1")');
    expect(text).toContain("- A [a]: evidence.level not documented");
    const long = itemText(
      "T",
      { summary: "x".repeat(1000), refs: Array.from({ length: 30 }, (_, i) => ({ id: `r${i}` })) },
      notices,
    );
    expect(Math.max(...long.split("\n").map((l) => l.length))).toBeLessThanOrEqual(260);
    expect(long).toContain("refs (30):");
    expect(long).toContain("… 18 more in the structured result");
  });
});
