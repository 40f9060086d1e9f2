/**
 * The endpoint descriptor holds each fact once (src/api/endpoints.ts): these checks keep
 * what is derived from it equal to what the code does with it. The query parameters it
 * lists are its schema's keys; the upper-cased ones are the options that upper-case; a
 * list command's help, its run and its MCP tool take one default `limit`, the
 * descriptor's. (test/docs/descriptor-drift.test.ts changes a descriptor in a copy of
 * src/ and watches every surface follow.)
 */
import { describe, expect, it } from "vitest";
import { optionsOf } from "../../src/api/command-options.js";
import { ENDPOINTS, paramValue, pathValue } from "../../src/api/endpoints.js";
import { COUNTRY_PATTERN } from "../../src/api/enums.js";
import { buildQuerySchema, checkQuery } from "../../src/api/query-schemas.js";
import { RESOURCES } from "../../src/api/resources.js";
import { COMMANDS } from "../../src/commands/registry.js";
import { pagingFrom } from "../../src/commands/shared/list.js";

const endpoints = Object.values(ENDPOINTS);

/** The keys of a zod (mini) object schema. */
function schemaKeys(schema: unknown): string[] {
  const def = (schema as { _zod: { def: { shape?: Record<string, unknown> } } })._zod.def;
  return Object.keys(def.shape ?? {}).sort();
}

describe("endpoint descriptors", () => {
  it.each(endpoints.map((e) => [e.name, e] as const))("%s: its params are its query schema's keys", (_, e) => {
    expect([...e.params].sort()).toEqual(schemaKeys(e.query));
    expect(new Set(e.params).size).toBe(e.params.length);
  });

  it.each(endpoints.map((e) => [e.name, e] as const))("%s: limit, cursor and fields follow list/get", (_, e) => {
    expect(e.params.includes("cursor")).toBe(e.list);
    if (e.list) expect(e.params).toContain("limit");
    expect(e.params.includes("fields")).toBe(e.fields !== undefined);
    if (e.list) {
      expect(e.defaultLimit).toBeGreaterThanOrEqual(1);
      expect(e.defaultLimit).toBeLessThanOrEqual(e.maxLimit);
      expect(checkQuery(e, { limit: e.maxLimit }).ok).toBe(true);
      expect(checkQuery(e, { limit: e.maxLimit + 1 }).ok).toBe(false);
    }
    if (e.fields) {
      expect(checkQuery(e, { fields: e.fields.join(",") }).ok).toBe(true);
      expect(checkQuery(e, { fields: "no_such_field" }).ok).toBe(false);
    }
  });

  it("the path parameter is the path's, and a typed one is checked before any request", () => {
    for (const e of endpoints) {
      expect(e.pathParam).toBe(/\{(\w+)\}/.exec(e.path)?.[1]);
      if (e.pathParam) expect(() => pathValue(e, "..")).toThrow(new RegExp(`<${e.pathParam}>`));
    }
    expect(pathValue(ENDPOINTS.peptide, " bpc-157 ")).toBe("bpc-157");
    // A study id in any form people paste is turned into the API's.
    expect(pathValue(ENDPOINTS.study, "10.1000/x")).toBe("doi-10.1000--x");
  });

  it("upper-cased parameters are the options' that upper-case, and paramValue applies it", () => {
    for (const e of endpoints)
      for (const o of e.options) {
        if (o.param === undefined || o.transform === undefined) continue;
        let upper = false;
        try {
          upper = o.transform(" us ") === "US";
        } catch {
          // A transform that refuses a code (--min-rating) does not upper-case one.
        }
        expect(e.upperParams.includes(o.param), `${e.name} ${o.param}`).toBe(upper);
      }
    expect(ENDPOINTS.vendors.upperParams).toContain("country");
    expect(paramValue(ENDPOINTS.vendors, "country", "us")).toMatch(COUNTRY_PATTERN);
    expect(paramValue(ENDPOINTS.vendors, "search", "us")).toBe("us");
  });

  it("a list command's --limit default in help and in its run are its endpoint's defaultLimit", () => {
    const lists = COMMANDS.filter((d) => d.list);
    expect(lists).not.toEqual([]);
    for (const def of lists) {
      const endpoint = ENDPOINTS[def.calls!];
      const limit = optionsOf(def).find((o) => o.key === "limit");
      expect(limit?.default, def.path.join(" ")).toBe(endpoint.defaultLimit);
      expect(pagingFrom({}, endpoint).limit, def.path.join(" ")).toBe(endpoint.defaultLimit);
    }
    // A command whose own option fills `limit` (search) shows the endpoint's default too.
    const search = COMMANDS.find((d) => d.calls === "search")!;
    expect(optionsOf(search).find((o) => o.param === "limit")?.default).toBe(ENDPOINTS.search.defaultLimit);
  });

  it("the fields --fields may name are the top-level names of the resource's CSV columns, for each endpoint", () => {
    for (const e of endpoints) {
      if (!e.fields) continue;
      const csv = RESOURCES[e.resource].csv!;
      expect([...new Set(csv.map((c) => c.split(".")[0]))], e.name).toEqual([...e.fields]);
    }
  });

  it("the `options` schema is the options' own: one of a flag's choices, or 1 to 200 characters; limit and cursor for a list", () => {
    const query = buildQuerySchema("options", {
      maxLimit: 50,
      fields: [],
      list: true,
      params: [{ param: "color", choices: ["red", "blue"] }, { param: "search" }],
    });
    const ok = (q: Record<string, unknown>) => checkQuery({ query }, q).ok;
    expect(ok({ color: "red", search: "x", limit: 50, cursor: "c" })).toBe(true);
    expect(ok({ color: "green" })).toBe(false);
    expect(ok({ search: "" })).toBe(false);
    expect(ok({ search: "x".repeat(201) })).toBe(false);
    expect(ok({ limit: 51 })).toBe(false);
    expect(ok({ other: "x" })).toBe(false);
  });
});
