import { describe, expect, it } from "vitest";
import { ENDPOINTS, type Endpoint } from "../../src/api/endpoints.js";
import { checkQuery } from "../../src/api/query-schemas.js";
import { PEPTIDE_LIST_OPTIONS } from "../../src/api/params/peptide-options.js";
import { AREA_OPTIONS, SEARCH_OPTIONS } from "../../src/api/params/research-options.js";
import { listQuery, pagingFrom } from "../../src/commands/shared/list.js";
import { queryFromOptions } from "../../src/api/query.js";
import { flagString, longName } from "../../src/api/options.js";
import { splitFields } from "../../src/api/globals.js";
import { searchText } from "../../src/commands/research/search.js";
import { exportPaging } from "../../src/commands/studies/export.js";
import { STUDY_FILTER_OPTIONS } from "../../src/api/params/study-options.js";
import type { OptionDef } from "../../src/core/command.js";
import type { Context } from "../../src/cli/run-context.js";
import { UsageError } from "../../src/core/errors.js";

/** listQuery reads only the global --fields from the context. */
const ctxWith = (fields?: string) => ({ fields: splitFields(fields) }) as unknown as Context;

function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return [(e as UsageError).message, ...(e as UsageError).hints].join("\n");
  }
  throw new Error("expected a usage error");
}

describe("flag names", () => {
  it("commander's flag string and the long flag come from the definition", () => {
    expect(flagString({ key: "evidenceLevel", long: "evidence-level", value: "level", description: "" })).toBe(
      "--evidence-level <level>",
    );
    expect(flagString({ key: "output", long: "output", short: "o", value: "format", description: "" })).toBe(
      "-o, --output <format>",
    );
    expect(flagString({ key: "retry", long: "no-retry", description: "" })).toBe("--no-retry");
    expect(longName({ key: "regulatoryStatus", long: "regulatory-status", value: "status", description: "" })).toBe(
      "--regulatory-status",
    );
  });
});

describe("every option fills a parameter its endpoint knows", () => {
  const cases: [string, Endpoint, readonly OptionDef[]][] = [
    ["peptides list", ENDPOINTS.peptides, PEPTIDE_LIST_OPTIONS],
    ["studies list/export", ENDPOINTS.studies, STUDY_FILTER_OPTIONS],
    ["research-areas", ENDPOINTS.researchAreas, AREA_OPTIONS],
    ["search", ENDPOINTS.search, SEARCH_OPTIONS],
  ];
  it.each(cases)("%s", (_name, endpoint, options) => {
    for (const o of options) {
      expect(o.param, `--${o.long}`).toBeDefined();
      const probe: Record<string, unknown> = { [o.param!]: "x" };
      if (endpoint === ENDPOINTS.search && o.param !== "q") probe.q = "x";
      const checked = checkQuery(endpoint, probe);
      const unknown = checked.ok ? [] : checked.problems.filter((p) => p.code === "unknown_parameter");
      expect(unknown, `--${o.long}`).toEqual([]);
    }
  });

  it.each(cases)("%s: every listed choice is accepted, and something else is not", (_name, endpoint, options) => {
    for (const o of options.filter((x) => x.choices)) {
      const base = endpoint === ENDPOINTS.search ? { q: "x" } : {};
      for (const c of o.choices!)
        expect(checkQuery(endpoint, { ...base, [o.param!]: c }).ok, `--${o.long} ${c}`).toBe(true);
      if (o.param !== "evidence_classification") {
        expect(checkQuery(endpoint, { ...base, [o.param!]: "no-such-value" }).ok, `--${o.long}`).toBe(false);
      }
    }
  });
});

describe("peptides list: flags -> parameters", () => {
  it("maps each flag to its spec parameter", () => {
    const { raw, flags } = queryFromOptions(
      {
        search: "zor",
        category: "cognitive",
        researchArea: "Tissue repair",
        evidenceLevel: "preclinical",
        regulatoryStatus: "approved",
        sort: "-name",
      },
      PEPTIDE_LIST_OPTIONS,
    );
    expect(raw).toEqual({
      search: "zor",
      category: "cognitive",
      research_area: "Tissue repair",
      evidence_level: "preclinical",
      regulatory_status: "approved",
      sort: "-name",
    });
    expect(flags.research_area).toBe("--research-area");
    expect(flags.evidence_level).toBe("--evidence-level");
  });

  it("leaves out flags not given", () => {
    expect(queryFromOptions({ category: "cosmetic" }, PEPTIDE_LIST_OPTIONS).raw).toEqual({ category: "cosmetic" });
  });

  it("sends --fields, checks paging, and keeps limit and cursor for the paginator", () => {
    const paging = pagingFrom({ limit: "5", cursor: "abc" }, ENDPOINTS.studies);
    const { query, fields } = listQuery(
      ctxWith("id,name, evidence"),
      ENDPOINTS.peptides,
      { category: "longevity" },
      PEPTIDE_LIST_OPTIONS,
      paging,
      true,
    );
    expect(query).toEqual({ category: "longevity", fields: "id,name,evidence" });
    expect(fields).toEqual(["id", "name", "evidence"]);
  });

  it.each([
    [{ category: "weight-loss" }, "--category must be one of: fat-loss"],
    [{ evidenceLevel: "strong" }, "--evidence-level must be one of:"],
    [{ regulatoryStatus: "legal" }, "--regulatory-status must be one of:"],
    [{ sort: "newest" }, "--sort must be one of: relevance, name, -name, evidence, updated"],
    [{ search: "x".repeat(201) }, "--search must be at most 200 characters"],
    [{ search: "" }, "--search must not be empty"],
    [{ researchArea: "y".repeat(81) }, "--research-area must be at most 80 characters"],
  ])("%j is refused naming the flag", (opts, message) => {
    expect(
      usageMessage(() =>
        listQuery(ctxWith(), ENDPOINTS.peptides, opts, PEPTIDE_LIST_OPTIONS, pagingFrom({}, ENDPOINTS.studies), true),
      ),
    ).toContain(message);
  });

  it("accepts the bounds themselves", () => {
    expect(() =>
      listQuery(
        ctxWith(),
        ENDPOINTS.peptides,
        { search: "x".repeat(200), researchArea: "y".repeat(80) },
        PEPTIDE_LIST_OPTIONS,
        pagingFrom({}, ENDPOINTS.studies),
        true,
      ),
    ).not.toThrow();
  });

  it("refuses --fields outside the peptide summary fields, naming --fields", () => {
    expect(
      usageMessage(() =>
        listQuery(
          ctxWith("id,price"),
          ENDPOINTS.peptides,
          {},
          PEPTIDE_LIST_OPTIONS,
          pagingFrom({}, ENDPOINTS.studies),
          true,
        ),
      ),
    ).toMatch(/^--fields must be a comma-separated list of: id, name/);
  });
});

describe("studies: flags -> parameters", () => {
  it("maps each flag to its spec parameter", () => {
    const { raw } = queryFromOptions(
      {
        peptide: "zorvatide-7",
        evidenceClassification: "human_controlled_trial,in_vitro",
        yearFrom: "2001",
        yearTo: "2020",
        search: "tendon",
        sort: "oldest",
      },
      STUDY_FILTER_OPTIONS,
    );
    expect(raw).toEqual({
      peptide: "zorvatide-7",
      evidence_classification: "human_controlled_trial,in_vitro",
      year_from: "2001",
      year_to: "2020",
      search: "tendon",
      sort: "oldest",
    });
  });

  it("sends what the user typed (strings), not coerced numbers", () => {
    const { query } = listQuery(
      ctxWith(),
      ENDPOINTS.studies,
      { yearFrom: "1900", yearTo: "2100" },
      STUDY_FILTER_OPTIONS,
      pagingFrom({}, ENDPOINTS.studies),
      true,
    );
    expect(query).toEqual({ year_from: "1900", year_to: "2100" });
  });

  it.each([
    [{ yearFrom: "1899" }, "--year-from must be a whole number from 1900 to 2100"],
    [{ yearTo: "2101" }, "--year-to must be a whole number from 1900 to 2100"],
    [{ yearFrom: "20x0" }, "--year-from must be a whole number"],
    [{ yearFrom: "2020", yearTo: "2010" }, "--year-from must not be later than"],
    [{ sort: "best" }, "--sort must be one of: newest, oldest, title"],
    [{ evidenceClassification: "a,,b" }, "--evidence-classification must be a comma-separated list"],
    [{ search: "s".repeat(201) }, "--search must be at most 200 characters"],
    [{ peptide: "p".repeat(201) }, "--peptide must be at most 200 characters"],
  ])("%j is refused naming the flag", (opts, message) => {
    expect(
      usageMessage(() =>
        listQuery(ctxWith(), ENDPOINTS.studies, opts, STUDY_FILTER_OPTIONS, pagingFrom({}, ENDPOINTS.studies), true),
      ),
    ).toContain(message);
  });

  it("export takes every page unless --limit or --all is given", () => {
    expect(pagingFrom(exportPaging({}), ENDPOINTS.studies)).toEqual({
      limit: undefined,
      pageSize: 100,
      cursor: undefined,
    });
    expect(pagingFrom(exportPaging({ limit: "250" }), ENDPOINTS.studies)).toEqual({
      limit: 250,
      pageSize: 100,
      cursor: undefined,
    });
    expect(pagingFrom(exportPaging({ limit: "7" }), ENDPOINTS.studies)).toEqual({
      limit: 7,
      pageSize: 7,
      cursor: undefined,
    });
    expect(pagingFrom(exportPaging({ all: true, pageSize: "30" }), ENDPOINTS.studies)).toEqual({
      limit: undefined,
      pageSize: 30,
      cursor: undefined,
    });
  });
});

describe("research areas and search", () => {
  it("research-areas --search is 1 to 80 characters", () => {
    expect(() =>
      listQuery(
        ctxWith(),
        ENDPOINTS.researchAreas,
        { search: "a".repeat(80) },
        AREA_OPTIONS,
        pagingFrom({}, ENDPOINTS.studies),
        false,
      ),
    ).not.toThrow();
    expect(
      usageMessage(() =>
        listQuery(
          ctxWith(),
          ENDPOINTS.researchAreas,
          { search: "a".repeat(81) },
          AREA_OPTIONS,
          pagingFrom({}, ENDPOINTS.studies),
          false,
        ),
      ),
    ).toContain("--search must be at most 80 characters");
  });

  it("the words of a search are joined with spaces", () => {
    expect(searchText(["growth", "factor"])).toBe("growth factor");
    expect(searchText(["  tissue repair "])).toBe("tissue repair");
    expect(searchText([])).toBe("");
  });

  it("search maps --types and --limit", () => {
    expect(queryFromOptions({ types: "content", limit: "25" }, SEARCH_OPTIONS).raw).toEqual({
      types: "content",
      limit: "25",
    });
  });
});

describe("option definitions", () => {
  it("each key is the one commander parses its flag into", async () => {
    const { Option } = await import("commander");
    const { COMMANDS, optionsOf } = await import("../../src/commands/registry.js");
    const { GLOBAL_OPTIONS } = await import("../../src/api/globals.js");
    const all = [...GLOBAL_OPTIONS, ...COMMANDS.flatMap((d) => optionsOf(d))];
    expect(all.length).toBeGreaterThan(40);
    for (const o of all) expect(new Option(flagString(o)).attributeName(), flagString(o)).toBe(o.key);
  });
});
