/**
 * Comments in src/ cite the documents of the repository by file and heading
 * (`docs/api.md#cursor-pagination`, `README.md#exit-codes`), so that a reader can check
 * them. These tests keep every such citation pointing at a heading that exists, and keep
 * out citations of documents the repository does not hold ("spec section 8").
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

/** Every file under `dir`, as paths relative to the repository. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a markdown file's headings (fenced code left out), repeats numbered as GitHub does. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

interface Citation {
  where: string;
  file: string;
  anchor: string;
}

/** `docs/<name>.md#anchor` and `README.md#anchor` as written in source comments. */
const CITATION = /(?<![\w/.-])(docs\/[\w-]+\.md|README\.md)#([\w-]+)/g;

function citationsIn(file: string): Citation[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const found: Citation[] = [];
  text.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(CITATION)) found.push({ where: `${file}:${i + 1}`, file: m[1]!, anchor: m[2]! });
  });
  return found;
}

/** Relative links with an anchor in a markdown file (`[x](cli.md#exit-codes)`), resolved from the repository. */
function linksIn(file: string): Citation[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const found: Citation[] = [];
  text.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(/\]\(([^):#\s]*)#([\w-]+)\)/g)) {
      const target = m[1] === "" ? file : path.normalize(path.join(path.dirname(file), m[1]!));
      found.push({ where: `${file}:${i + 1}`, file: target, anchor: m[2]! });
    }
  });
  return found;
}

function broken(citations: Citation[]): string[] {
  const anchors = new Map<string, Set<string> | null>();
  const anchorsFor = (file: string) => {
    if (!anchors.has(file)) {
      const full = path.join(ROOT, file);
      anchors.set(file, existsSync(full) ? anchorsOf(readFileSync(full, "utf8")) : null);
    }
    return anchors.get(file);
  };
  return citations.flatMap((c) => {
    const known = anchorsFor(c.file);
    if (!known) return [`${c.where}: ${c.file} does not exist`];
    return known.has(c.anchor) ? [] : [`${c.where}: ${c.file} has no heading #${c.anchor}`];
  });
}

const SOURCES = filesUnder("src").filter((f) => /\.(ts|md)$/.test(f));
const DOCS = [...filesUnder("docs").filter((f) => f.endsWith(".md")), "README.md", "CONTRIBUTING.md"];

describe("documents cited in src/", () => {
  const citations = SOURCES.flatMap(citationsIn);

  it("are cited at all (the pattern still finds them)", () => {
    expect(citations.length).toBeGreaterThan(20);
    expect(new Set(citations.map((c) => c.file))).toEqual(new Set(["docs/api.md", "docs/cli.md"]));
  });

  it("exist, with the heading each citation names", () => {
    expect(broken(citations)).toEqual([]);
  });

  it("are never documents outside the repository, cited by section number", () => {
    const numbered = /\b(spec|contract)(\s+section)?\s+\d|\bsection\s+\d/i;
    const offenders = SOURCES.flatMap((file) =>
      readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, i) =>
          (numbered.test(line) && !/\bRFC \d+/.test(line)) || line.includes("spec/service-interface")
            ? [`${file}:${i + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(offenders).toEqual([]);
  });
});

describe("links between docs/, the README and CONTRIBUTING.md", () => {
  it("point at headings that exist", () => {
    expect(DOCS.length).toBeGreaterThan(0);
    expect(broken(DOCS.flatMap(linksIn))).toEqual([]);
  });
});

describe("anchors", () => {
  it("are GitHub's slugs", () => {
    expect([...anchorsOf("# A\n## Serving MCP clients (`pep mcp`)\n```sh\n# not a heading\n```\n## A\n")]).toEqual([
      "a",
      "serving-mcp-clients-pep-mcp",
      "a-1",
    ]);
    expect(slugOf("ETags and caching")).toBe("etags-and-caching");
    expect(slugOf("CSV and TSV columns")).toBe("csv-and-tsv-columns");
  });
});
