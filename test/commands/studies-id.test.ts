import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseStudyId, toStudyId } from "../../src/api/study-id.js";
import { UsageError } from "../../src/core/errors.js";

describe("study ids: the API's own forms pass through", () => {
  it.each([
    ["pmid-1", "pmid-1"],
    ["pmid-90000001", "pmid-90000001"],
    ["PMID-90000001", "pmid-90000001"],
    ["doi-10.5555--sbx.2021.001", "doi-10.5555--sbx.2021.001"],
    ["DOI-10.5555--a--b", "doi-10.5555--a--b"],
    ["nct-NCT99000001", "nct-NCT99000001"],
    ["nct-nct99000001", "nct-NCT99000001"],
    ["  pmid-42  ", "pmid-42"],
  ])("%s -> %s", (input, id) => {
    expect(parseStudyId(input)).toBe(id);
  });

  it("a doi- id typed with slashes is written with --", () => {
    expect(parseStudyId("doi-10.1000/x/y")).toBe("doi-10.1000--x--y");
  });
});

describe("study ids: what people paste is converted", () => {
  it.each([
    ["12345678", "pmid-12345678"],
    ["1", "pmid-1"],
    ["0012345", "pmid-12345"],
    ["PMID:12345678", "pmid-12345678"],
    ["pmid12345678", "pmid-12345678"],
    ["https://pubmed.ncbi.nlm.nih.gov/12345678/", "pmid-12345678"],
    ["10.1000/x", "doi-10.1000--x"],
    ["10.1000/abc/def.ghi", "doi-10.1000--abc--def.ghi"],
    ["doi:10.1000/x", "doi-10.1000--x"],
    ["DOI:10.1000/x", "doi-10.1000--x"],
    ["doi: 10.1000/x", "doi-10.1000--x"],
    ["https://doi.org/10.1000/x", "doi-10.1000--x"],
    ["http://dx.doi.org/10.1000/x", "doi-10.1000--x"],
    ["https://dx.doi.org/10.1000/x", "doi-10.1000--x"],
    ["doi.org/10.1000/x", "doi-10.1000--x"],
    ["https://doi.org/10.1000%2Fx", "doi-10.1000--x"],
    ["10.5555/sbx.(2021)-7;x", "doi-10.5555--sbx.(2021)-7;x"],
    ["NCT01234567", "nct-NCT01234567"],
    ["nct01234567", "nct-NCT01234567"],
    ["Nct01234567", "nct-NCT01234567"],
    ["https://clinicaltrials.gov/study/NCT01234567", "nct-NCT01234567"],
    ["https://clinicaltrials.gov/ct2/show/nct01234567", "nct-NCT01234567"],
  ])("%s -> %s", (input, id) => {
    expect(parseStudyId(input)).toBe(id);
  });
});

describe("study ids: anything else is refused", () => {
  it.each([
    "",
    "   ",
    "abc",
    "0",
    "pmid-",
    "pmid-0",
    "pmid-abc",
    "1234567890",
    "NCT123",
    "NCT012345678",
    "nct-123",
    "doi-",
    "doi-abc",
    "doi-10.1000",
    "10.1000",
    "10.1000/",
    "10.1/x",
    "11.1000/x",
    "https://doi.org/",
    "https://example.com/10.1000/x",
    "10.1000/x y",
    "12 34",
    "https://doi.org/10.1000%E0%A4%A",
  ])("%j", (input) => {
    expect(parseStudyId(input)).toBeUndefined();
  });

  it("toStudyId throws a usage error (exit 2) naming the accepted forms", () => {
    let caught: unknown;
    try {
      toStudyId("foo");
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(UsageError);
    const e = caught as UsageError;
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain('"foo"');
    const hint = e.hints.join("\n");
    for (const form of ["pmid-<number>", "doi-", "nct-", "PMID", "DOI", "NCT"]) expect(hint).toContain(form);
  });
});

describe("study ids: properties", () => {
  it("every PMID becomes pmid-<n> and is stable when converted again", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), (n) => {
        const id = parseStudyId(String(n));
        expect(id).toBe(`pmid-${n}`);
        expect(parseStudyId(id!)).toBe(id);
      }),
    );
  });

  it("every DOI round-trips: the id has no slash, and -- back to / gives the DOI", () => {
    const suffix = fc.stringMatching(/^[A-Za-z0-9.;()_:-]{1,20}(\/[A-Za-z0-9._-]{1,10}){0,3}$/);
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 99999 }), suffix, (registrant, rest) => {
        const doi = `10.${registrant}/${rest}`;
        for (const form of [doi, `doi:${doi}`, `https://doi.org/${doi}`]) {
          const id = parseStudyId(form)!;
          expect(id).toBe(`doi-${doi.split("/").join("--")}`);
          expect(id).not.toContain("/");
          expect(parseStudyId(id)).toBe(id);
        }
      }),
    );
  });

  it("every NCT number, in any case, becomes nct-NCT<8 digits>", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), fc.constantFrom("NCT", "nct", "Nct"), (n, prefix) => {
        const digits = String(n).padStart(8, "0");
        expect(parseStudyId(`${prefix}${digits}`)).toBe(`nct-NCT${digits}`);
      }),
    );
  });
});
