/**
 * `--file` chooses its format from the file's name when `-o` is not given, and otherwise
 * gets the command's machine default, never a terminal table (docs/cli.md, "Global options").
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCsv, parseNdjson, parseTsv } from "../helpers/formats.js";
import { type SandboxCli, startSandboxCli } from "../helpers/sandbox-cli.js";

let cli: SandboxCli;
let dir: string;
const at = (name: string) => path.join(dir, name);

beforeAll(async () => {
  cli = await startSandboxCli({ seed: 3 });
  dir = mkdtempSync(path.join(os.tmpdir(), "pep-file-format-"));
});
afterAll(async () => {
  await cli?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("--file without -o", () => {
  it.each([
    ["peptides.csv", (t: string) => expect(parseCsv(t).length).toBe(3)],
    ["peptides.tsv", (t: string) => expect(parseTsv(t).length).toBe(3)],
    ["peptides.json", (t: string) => expect((JSON.parse(t) as unknown[]).length).toBe(3)],
    ["peptides.ndjson", (t: string) => expect(parseNdjson(t).length).toBe(3)],
    ["peptides.JSONL", (t: string) => expect(parseNdjson(t).length).toBe(3)],
  ])("%s on a terminal gets the format its name says", async (name, check) => {
    const r = await cli.pep(["peptides", "list", "--limit", "3", "--file", at(name)], { tty: true, columns: 80 });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("");
    expect(r.err).toContain(`wrote 3 peptides to ${at(name)}`);
    check(readFileSync(at(name), "utf8"));
  });

  it("citation endings on a study command: .bib, .ris and .csl.json", async () => {
    for (const [name, first] of [
      ["refs.bib", /^@\w+\{/],
      ["refs.ris", /^TY {2}- /],
      ["refs.csl.json", /^\[\s*\{/],
    ] as const) {
      const r = await cli.pep(["studies", "export", "--limit", "2", "--file", at(name)], { tty: true, columns: 80 });
      expect(r.code, r.err).toBe(0);
      expect(readFileSync(at(name), "utf8"), name).toMatch(first);
    }
    const csl = JSON.parse(readFileSync(at("refs.csl.json"), "utf8")) as Array<{ type?: unknown; title?: unknown }>;
    expect(csl).toHaveLength(2);
    expect(typeof csl[0]!.title).toBe("string");
  });

  it("a citation ending off a study command is exit 2 naming what it writes, before any request", async () => {
    const r = await cli.pep(["peptides", "list", "--file", at("p.bib")]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      [
        `error: --file ${at("p.bib")}: the name asks for BibTeX, which pep peptides list does not write; to a file it writes json, ndjson, csv, tsv, ids`,
        "hint: name the file .ndjson .jsonl .json .csv .tsv, or choose the format with -o (json, ndjson, csv, tsv, ids)",
        "hint: citations (BibTeX, RIS, CSL-JSON) come from the study commands: `pep peptides studies <slug> --file refs.bib`, `pep studies list|get|export --file refs.bib`",
      ].join("\n"),
    );
    const ris = await cli.pep(["vendors", "list", "--file", at("v.ris")]);
    expect(ris.code).toBe(2);
    expect(ris.err).toContain("the name asks for RIS, which pep vendors list does not write");
    expect(r.sent).toBe(0);
    expect(existsSync(at("p.bib"))).toBe(false);
  });

  it("another name is refused, naming the endings, before any request, unless -o says what to write", async () => {
    for (const name of ["peptides.out", "studies.txt", "sheet.xlsx", "noending"]) {
      const r = await cli.pep(["peptides", "list", "--limit", "3", "--file", at(name)], { tty: true, columns: 40 });
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(`--file ${at(name)}: pep does not know what to write to a file named so`);
      expect(r.err).toMatch(/\.csv .*\.bib/);
      expect(r.sent).toBe(0);
      expect(existsSync(at(name))).toBe(false);
    }
    const r = await cli.pep(["peptides", "list", "--limit", "3", "-o", "json", "--file", at("peptides.out")], {
      tty: true,
      columns: 40,
    });
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(readFileSync(at("peptides.out"), "utf8")) as unknown[]).length).toBe(3);
    const e = await cli.pep(["studies", "export", "--limit", "2", "-o", "csv", "--file", at("studies.txt")]);
    expect(e.code, e.err).toBe(0);
    expect(parseCsv(readFileSync(at("studies.txt"), "utf8"))).toHaveLength(2);
    // .bibtex is BibTeX.
    const b = await cli.pep(["studies", "list", "--limit", "2", "--file", at("refs.bibtex")]);
    expect(b.code, b.err).toBe(0);
    expect(readFileSync(at("refs.bibtex"), "utf8")).toMatch(/^@\w+\{/);
  });

  it("PEP_OUTPUT=table does not put a table into a file; the name still wins over it", async () => {
    const r = await cli.pep(["peptides", "list", "--limit", "2", "--file", at("env.json")], {
      tty: true,
      env: { PEP_OUTPUT: "table" },
    });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(readFileSync(at("env.json"), "utf8"))).toHaveLength(2);
    const n = await cli.pep(["peptides", "list", "--limit", "2", "--file", at("env.csv")], {
      env: { PEP_OUTPUT: "json" },
    });
    expect(n.code, n.err).toBe(0);
    expect(parseCsv(readFileSync(at("env.csv"), "utf8"))).toHaveLength(2);
  });
});

describe("--file with -o", () => {
  it("-o wins over the name, and the contradiction is said once", async () => {
    const r = await cli.pep(["peptides", "list", "--limit", "2", "-o", "json", "--file", at("really-json.csv")]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(readFileSync(at("really-json.csv"), "utf8"))).toHaveLength(2);
    expect(r.err.match(/whose name says csv \(-o decides\)/g)).toHaveLength(1);
  });

  it("no warning when they agree, and none with -q", async () => {
    const agree = await cli.pep(["peptides", "list", "--limit", "1", "-o", "csv", "--file", at("same.csv")]);
    expect(agree.err).not.toMatch(/whose name says/);
    // Off a terminal too (a CI log), the "wrote" line says where the output went; not under -q.
    expect(agree.err).toContain(`wrote 1 peptide to ${at("same.csv")}`);
    const quiet = await cli.pep(["peptides", "list", "--limit", "1", "-q", "-o", "json", "--file", at("q.csv")]);
    expect(quiet.code).toBe(0);
    // -q leaves only the notice that the data is synthetic, which it never silences.
    expect(quiet.err).toMatch(/^sandbox data, synthetic: not real research \(\S+\)\n$/);
  });
});
