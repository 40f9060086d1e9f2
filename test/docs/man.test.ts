import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/commands/registry.js";
import type { CommandDef } from "../../src/core/command.js";
import { ENVIRONMENT } from "../../src/docs/man-sections.js";
import { manPageFiles, pageKeyOf, renderManPages } from "../../src/docs/man-pages.js";
import { code, guardLine, paragraphs, prose } from "../../src/docs/roff.js";
import { docSources } from "../../src/commands/registry.js";
import type { DocSources } from "../../src/docs/tree.js";
import { ROOT } from "../helpers/cli.js";

const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  version: string;
  man?: string[];
  files?: string[];
};
const src = docSources(pkg.version);
const pages = renderManPages(src);
const hasGroff = spawnSync("groff", ["--version"]).status === 0;

function groffWarnings(file: string): string {
  const r = spawnSync("groff", ["-man", "-ww", "-z", file], { encoding: "utf8" });
  return `${r.stderr}${r.status === 0 ? "" : `exit ${r.status}`}`;
}

describe("man pages", () => {
  it("checked in under man/ are those the definitions render now (run `npm run man`)", () => {
    const onDisk = readdirSync(path.join(ROOT, "man"))
      .filter((f) => /\.\d$/.test(f))
      .sort();
    expect(onDisk).toEqual(pages.map((p) => p.file).sort());
    for (const p of pages)
      expect(readFileSync(path.join(ROOT, "man", p.file), "utf8"), `man/${p.file} is stale: run npm run man`).toBe(
        p.text,
      );
  });

  it("are all listed in package.json man, so a global install puts them on MANPATH", () => {
    expect(pkg.man).toEqual(manPageFiles(src).map((f) => `man/${f}`));
    expect(pkg.files).toContain("man/");
  });

  it("render the same twice and carry the version, not a date", () => {
    expect(renderManPages(docSources(pkg.version))).toEqual(pages);
    for (const p of pages) {
      expect(p.text).toMatch(new RegExp(`^\\.TH "[^"]+" 1 "" "pepcli ${pkg.version.replace(/\./g, "\\.")}"`, "m"));
      expect(p.text).not.toMatch(/\b20\d\d-\d\d-\d\d\b/);
    }
  });

  it("have every section a man page needs", () => {
    for (const p of pages) {
      for (const s of [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "EXIT STATUS",
        "ENVIRONMENT",
        "FILES",
        "EXAMPLES",
        "SEE ALSO",
      ]) {
        expect(p.text, `${p.file} lacks ${s}`).toContain(`\n.SH ${s}\n`);
      }
      expect(p.text).toMatch(new RegExp(`^.SH NAME\\n${p.name.replace(/-/g, "\\\\-")} \\\\- \\S`, "m"));
    }
  });

  it("document every command with its options, allowed values and examples, and pep.1 lists them all", () => {
    const main = pages.find((p) => p.file === "pep.1")!;
    for (const def of COMMANDS) {
      const title = code(["pep", ...def.path].join(" "));
      const page = pages.find((p) => p.name === `pep-${pageKeyOf(def)}`)!;
      expect(page, `no page for ${def.path.join(" ")}`).toBeDefined();
      expect(page.text).toContain(`.SS "${title}"`);
      expect(main.text).toContain(`\\fB${title}\\fR`);
      expect(main.text).toContain(`See \\fB${code(page.name)}\\fR(1).`);
      for (const o of src.optionsOf(def).filter((x) => !x.hidden)) {
        const long = `--${o.long}`;
        if (long) expect(page.text).toContain(`\\fB${code(long)}\\fR`);
        for (const c of o.choices ?? []) expect(page.text).toContain(`\\fB${code(c)}\\fR`);
      }
      for (const e of def.examples ?? []) expect(page.text).toContain(code(e));
    }
  });

  it("refer in SEE ALSO only to pages that exist, and to all of the others", () => {
    const names = pages.map((p) => p.name);
    for (const p of pages) {
      const see = p.text.slice(p.text.indexOf(".SH SEE ALSO"));
      const refs = [...see.matchAll(/^\.BR (\S+) \(1\)/gm)].map((m) => m[1]!.replace(/\\-/g, "-"));
      expect(refs.sort()).toEqual(names.filter((n) => n !== p.name).sort());
    }
  });

  it("list every PEP_* variable the code reads, and NO_COLOR and FORCE_COLOR", () => {
    const used = new Set<string>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.name.endsWith(".ts") && !full.includes(`${path.sep}docs${path.sep}`)) {
          for (const m of readFileSync(full, "utf8").matchAll(/\b(PEP_[A-Z_]+[A-Z])\b/g)) used.add(m[1]!);
        }
      }
    };
    walk(path.join(ROOT, "src"));
    used.delete("PEP_VERSION");
    const documented = ENVIRONMENT.map((e) => e.name);
    for (const name of [...used, "NO_COLOR", "FORCE_COLOR"])
      expect(documented, `${name} is not in ENVIRONMENT`).toContain(name);
  });

  it.skipIf(!hasGroff)("are valid roff: groff -man -ww reports no warning", () => {
    for (const p of pages) expect(groffWarnings(path.join(ROOT, "man", p.file)), p.file).toBe("");
  });

  it.runIf(!hasGroff)("cannot be checked with groff here: groff is not installed (skipped)", () => {
    console.warn("groff not found: skipping the roff validity check of man/");
  });
});

describe("roff escaping", () => {
  it("guards leading dots and apostrophes, escapes backslashes, minus signs and non-ASCII", () => {
    expect(guardLine(".hidden request")).toBe("\\&.hidden request");
    expect(guardLine("'quoted")).toBe("\\&'quoted");
    expect(code("--no-cache C:\\x")).toBe("\\-\\-no\\-cache C:\\ex");
    expect(prose("use --all for a read-only `pep-x` run…")).toBe(
      "use \\-\\-all for a read-only \\fBpep\\-x\\fR run\\[u2026]",
    );
    expect(paragraphs("one\n\n.two")).toEqual(["one", ".PP", "\\&.two"]);
  });

  it.skipIf(!hasGroff)("keeps awkward definitions valid roff", () => {
    const awkward: CommandDef = {
      path: ["weird", "cmd"],
      summary: ".starts with a dot \\ and has 'quotes' and \"doubles\"",
      description: "'apostrophe first\n.dot first — dash – ≥ µ\n\n\\fB not a font change",
      args: [{ name: "x", description: ".arg", required: false, variadic: true }],
      options: [{ key: "aB", long: "a-b", value: "c|-", description: "'value", choices: [".x", "-y"], default: ".z" }],
      examples: ["pep weird cmd --a-b '.x' | jq '.[]'  # a comment", ".leading dot"],
    };
    const sources: DocSources = { ...src, commands: [awkward], groups: { weird: { summary: "'odd group" } } };
    const dir = mkdtempSync(path.join(os.tmpdir(), "pep-man-"));
    try {
      for (const p of renderManPages(sources)) {
        const file = path.join(dir, p.file);
        writeFileSync(file, p.text);
        expect(groffWarnings(file), p.file).toBe("");
        expect(p.text).not.toMatch(/^[.'](?!\\"|TH|SH|SS|TP|PP|RS|RE|nf|fi|nh|ad|BR)/m);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
