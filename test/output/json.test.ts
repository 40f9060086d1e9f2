import { describe, expect, it } from "vitest";
import type { RawResult } from "../../src/core/command.js";
import { item, list, run, fromArray } from "./helpers.js";
import { MONEY, offers, peptides, studies } from "./fixtures.js";

describe("json", () => {
  it("prints a list as one array, byte for byte what JSON.stringify gives", async () => {
    const { out } = await run(list("peptide", peptides), "json");
    expect(out).toBe(`${JSON.stringify(peptides, null, 2)}\n`);
    expect(JSON.parse(out)[0].classification).toBe("not_documented");
    expect(JSON.parse(out)[1].classification).toBeNull();
  });

  it("prints an empty list as []", async () => {
    expect((await run(list("study", []), "json")).out).toBe("[]\n");
  });

  it("prints an item's data pretty with a trailing newline", async () => {
    const { out } = await run(item("study-detail", studies[0]), "json");
    expect(out).toBe(`${JSON.stringify(studies[0], null, 2)}\n`);
  });

  it("keeps money strings exactly as received", async () => {
    const { out } = await run(list("offer", offers), "json");
    for (const m of MONEY) expect(out).toContain(`"price": "${m}"`);
    expect(JSON.parse(out).map((o: { price: string }) => o.price)).toEqual([...MONEY]);
  });
});

describe("ndjson", () => {
  it("prints one compact item per line", async () => {
    const { out } = await run(list("offer", offers), "ndjson");
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(offers.length);
    expect(lines.map((l) => JSON.parse(l))).toEqual(offers);
    for (const m of MONEY) expect(out).toContain(`"price":"${m}"`);
  });

  it("prints an item result as one line", async () => {
    const { out } = await run(item("vendor-detail", { name: "A", rating: { average: 4 } }), "ndjson");
    expect(out).toBe('{"name":"A","rating":{"average":4}}\n');
  });

  it("prints nothing for an empty list", async () => {
    expect((await run(list("offer", []), "ndjson")).out).toBe("");
  });
});

describe("raw results (pep api)", () => {
  const body = { data: [{ price: "1000000.00000001" }], meta: { x: 1 } };

  it("prints a body as pretty JSON, compact with ndjson, whatever the format", async () => {
    const raw: RawResult = { kind: "raw", body };
    expect((await run(raw, "json")).out).toBe(`${JSON.stringify(body, null, 2)}\n`);
    expect((await run(raw, "table")).out).toBe(`${JSON.stringify(body, null, 2)}\n`);
    expect((await run(raw, "ndjson")).out).toBe(`${JSON.stringify(body)}\n`);
  });

  it("prints paginated items as NDJSON lines", async () => {
    const raw: RawResult = { kind: "raw", items: fromArray([{ a: 1 }, { b: "0.10" }]) };
    expect((await run(raw, "json")).out).toBe('{"a":1}\n{"b":"0.10"}\n');
  });
});
