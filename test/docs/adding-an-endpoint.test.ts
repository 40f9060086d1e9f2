/**
 * docs/adding-an-endpoint.md, followed literally on one copy of src/ (and of the two
 * documents it names) with two made-up endpoint shapes at once, each kept to its own
 * steps (the files each step writes are recorded by variant):
 *
 * - a new noun: a list, `GET /widgets` with one filter, and a get, `GET /widgets/{id}`,
 *   answered by the sandbox from data built with the data set;
 * - a list under a path parameter under a noun that exists, `GET
 *   /peptides/{slug}/interactions`, with a filter of fixed choices: the smallest list,
 *   whose steps stay within the guide's six files.
 *
 * The descriptors alone make the compiler name exactly the files the guide's table names;
 * each variant's steps change only files of its list, and the guide names no file that
 * does not exist; filled in, the copy compiles (one type-check for both), and every
 * command works from its definition alone: help, completion, man pages, the CSV header,
 * the README's examples and the MCP tools follow.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { markdownExamples } from "../helpers/doc-examples.js";
import { pepWords } from "../helpers/examples.js";
import { rawSession } from "../helpers/mcp-client.js";
import { copySources, type SrcCopy } from "../helpers/src-copy.js";

const NOUN = "widgets";
const GUIDE = readFileSync(path.join(ROOT, "docs/adding-an-endpoint.md"), "utf8");
/** The guide's list of hand-edited files (between its `files` markers), `<noun>` filled in. */
function listIn(marker: string, noun: string): string[] {
  const start = GUIDE.indexOf(`<!-- ${marker}:`);
  const end = GUIDE.indexOf(`<!-- end of ${marker} -->`);
  if (start === -1 || end === -1) return [];
  return GUIDE.slice(start, end)
    .split("\n")
    .map((l) => /^- `([^`]+)`$/.exec(l.trim())?.[1])
    .filter((f): f is string => f !== undefined)
    .map((f) => f.replace("<noun>", noun));
}
const LISTED = listIn("files", NOUN);
/** The smallest list endpoint's files: a list under a path parameter, under a noun that exists. */
const SMALL_NOUN = "peptides";
const SMALLEST = listIn("smallest", SMALL_NOUN);
/** A peptide of the sandbox's data set (seed 1). */
const SLUG = "brevritarin-81";
/** The widgets' default `--limit`, said once, in the descriptor the test writes. */
const DEFAULT_LIMIT = 4;

let copy: SrcCopy;
const copyDir = () => copy.dir;
/** The files each variant's steps wrote. */
const touched = { widgets: new Set<string>(), interactions: new Set<string>() };
type Variant = keyof typeof touched;

/** The copy's edits, each recorded as a file of `variant`'s steps. */
const edits = (variant: Variant) => ({
  insertAfter(file: string, anchor: string, text: string) {
    touched[variant].add(file);
    copy.insertAfter(file, anchor, text);
  },
  write(file: string, text: string) {
    touched[variant].add(file);
    copy.write(file, text);
  },
  /** Adds `line` to the imports of `file` unless it is there (both variants may need it). */
  importOnce(file: string, after: string, line: string) {
    touched[variant].add(file);
    if (!readFileSync(path.join(copy.dir, file), "utf8").includes(line)) copy.insertAfter(file, after, line);
  },
});

beforeAll(() => {
  copy = copySources("pep-endpoint-", ["README.md", "docs/api.md"]);
});

afterAll(() => copy?.cleanup());

/**
 * Inserts `text` after the line that opens the total record of `file` (the line that
 * declares a `Record<Resource, …>` or `Record<EndpointName, …>` and ends with `{`).
 */
function fillRecord(variant: Variant, file: string, text: string): void {
  const source = readFileSync(path.join(copy.dir, file), "utf8");
  const opening = source
    .split("\n")
    .filter((l) => /Record<(Resource|EndpointName),/.test(l) && l.trimEnd().endsWith("{"));
  if (opening.length !== 1) throw new Error(`${file}: one total record expected, found ${opening.length}`);
  edits(variant).insertAfter(file, `${opening[0]}\n`, text);
}

/** Step 1: the descriptors, the query schema and the resource. */
function writeDescriptors(): void {
  const copy = edits("widgets");
  copy.insertAfter(
    "src/api/endpoints.ts",
    "export const ENDPOINTS = {\n",
    `  widgets: e("widgets", {
    path: "/widgets",
    scope: "research:read",
    query: "widgets",
    resource: "widget",
    list: true,
    defaultLimit: ${DEFAULT_LIMIT},
    options: [{ key: "size", long: "size", value: "n", param: "size", description: "only widgets of this size" }],
  }),
  widget: e("widget", { path: "/widgets/{id}", scope: "research:read", query: "none", resource: "widget" }),
`,
  );
  copy.insertAfter(
    "src/api/query-schemas.ts",
    "const builders = {\n",
    "  widgets: (f: SchemaFacts) =>\n    z.strictObject({ size: opt(intIn(1, 9)), limit: opt(limit(f.maxLimit)), cursor: opt(cursor()) }),\n",
  );
  copy.insertAfter(
    "src/api/resources.ts",
    "export const RESOURCES = {\n",
    `  widget: { nouns: ["widget", "widgets"], csv: ["id", "name", "size"] },\n`,
  );
}

/** Step 2: what the compiler names. */
function fillNamedRecords(): void {
  const copy = edits("widgets");
  fillRecord(
    "widgets",
    "src/output/table-column-specs.ts",
    `  widget: [
    { header: "ID", paths: ["id"], fixed: true, priority: 100 },
    { header: "NAME", paths: ["name"], priority: 90, min: 16 },
  ],
`,
  );
  fillRecord("widgets", "src/output/card-layouts.ts", "  widget: GENERIC,\n");
  fillRecord(
    "widgets",
    "src/sandbox/handlers/index.ts",
    `  widgets: (ctx) => {
    const page = paginate(ctx, ctx.data.widgets.filter((w) => ctx.query.size === undefined || w.size === ctx.query.size));
    return { data: page.items, pagination: page.pagination };
  },
  widget: (ctx) => {
    const id = ctx.route.params.id ?? "";
    const found = ctx.data.widgets.find((w) => w.id === id);
    if (!found) throw notFound("widget", id);
    return { data: found };
  },
`,
  );
  const handlerImports = 'import type { Handler } from "../request-context.js";\n';
  copy.importOnce(
    "src/sandbox/handlers/index.ts",
    handlerImports,
    'import { paginate } from "../request-context.js";\n',
  );
  copy.importOnce("src/sandbox/handlers/index.ts", handlerImports, 'import { notFound } from "../sandbox-error.js";\n');
  // The MCP tools: their words, and (while the catalog restates them) the endpoint's facts.
  const words = `name: "list_widgets",
    group: "research",
    title: "List widgets",
    summary: "The widgets, by size.",`;
  const restates = /Record<EndpointName, ToolEntry \| null>/.test(
    readFileSync(path.join(copyDir(), "src/mcp/catalog.ts"), "utf8"),
  );
  const facts = `
    endpoint: "widgets",
    scope: "research:read",
    list: true,
    params: ["size", "limit", "cursor"],
    defaultLimit: ${DEFAULT_LIMIT},`;
  fillRecord(
    "widgets",
    "src/mcp/catalog.ts",
    `  widgets: {\n    ${words}${restates ? facts : ""}\n  },\n  widget: null,\n`,
  );
}

/** Step 3: the sandbox's data, made from the seed and the scale. */
function writeSandboxData(): void {
  const copy = edits("widgets");
  const file = "src/sandbox/data/index.ts";
  copy.insertAfter(file, "export interface Dataset {\n", "  widgets: { id: string; name: string; size: number }[];\n");
  copy.insertAfter(
    file,
    "  const products = productsOf(listedOffers, peptideById);\n",
    "  const widgets = Array.from({ length: n(6, 6) }, (_, i) => ({ id: `wdg_${seed}_${i + 1}`, name: `Widget ${i + 1}`, size: (i % 3) + 1 }));\n",
  );
  copy.insertAfter(file, "    products,\n", "    widgets,\n");
}

/** Step 4: the definitions (no code: each is its endpoint) and the new noun's registration. */
function writeCommands(): void {
  const copy = edits("widgets");
  copy.write(
    `src/commands/${NOUN}/defs.ts`,
    `import { ENDPOINTS } from "../../api/endpoints.js";
import type { CommandDef } from "../../core/command.js";
import { BATCH_OPTIONS } from "../shared/batch-options.js";

export const defs: CommandDef[] = [
  {
    path: ["widgets", "list"],
    isDefault: true,
    summary: "List the widgets",
    options: ENDPOINTS.widgets.options,
    list: true,
    calls: "widgets",
    examples: ["pep --sandbox widgets list --size 2"],
  },
  {
    path: ["widgets", "get"],
    summary: "Show one widget",
    args: [{ name: "id", description: "widget id; several, or - to read them from standard input", required: true, variadic: true }],
    options: [...ENDPOINTS.widget.options, ...BATCH_OPTIONS],
    calls: "widget",
    examples: ["pep --sandbox widgets get wdg_1_2"],
  },
];
`,
  );
  copy.insertAfter(
    "src/commands/registry.ts",
    'import { defs as meta } from "./meta/defs.js";\n',
    `import { defs as ${NOUN} } from "./${NOUN}/defs.js";\n`,
  );
  copy.insertAfter("src/commands/registry.ts", "  ...meta,\n", `  ...${NOUN},\n`);
  copy.insertAfter(
    "src/commands/registry.ts",
    "export const GROUPS: Record<string, GroupInfo> = {\n",
    `  ${NOUN}: { summary: "Widgets: list them, look one up" },\n`,
  );
}

/** Step 5: the documents. */
function writeDocuments(): void {
  const copy = edits("widgets");
  const readme = path.join(copyDir(), "README.md");
  copy.write(
    "README.md",
    `${readFileSync(readme, "utf8")}\n## Widgets\n\n\`\`\`sh\npep --sandbox widgets list --size 2\npep --sandbox widgets get wdg_1_2\n\`\`\`\n`,
  );
  copy.write(
    "docs/api.md",
    `${readFileSync(path.join(copyDir(), "docs/api.md"), "utf8")}\n## Widgets\n\n\`GET /widgets\` lists widgets, filtered by \`size\`; \`GET /widgets/{id}\` answers one.\n`,
  );
}

/** The list under a path parameter, every step: descriptor, handler, MCP tool, definition, documents. */
function writeInteractions(): void {
  const copy = edits("interactions");
  copy.insertAfter(
    "src/api/endpoints.ts",
    "export const ENDPOINTS = {\n",
    `  peptideInteractions: e("peptideInteractions", {
    path: "/peptides/{slug}/interactions",
    scope: "research:read",
    query: "options",
    resource: "generic",
    list: true,
    options: [{ key: "kind", long: "kind", value: "kind", param: "kind", choices: ["synergy", "conflict"], description: "only interactions of this kind" }],
  }),
`,
  );
  fillRecord(
    "interactions",
    "src/sandbox/handlers/index.ts",
    `  peptideInteractions: (ctx) => {
    const slug = ctx.route.params.slug ?? "";
    if (!ctx.data.peptides.some((p) => p.id === slug)) throw notFound("peptide", slug);
    const all = ["synergy", "conflict", "synergy"].map((kind, i) => ({ id: \`\${slug}~\${i + 1}\`, kind }));
    const page = paginate(ctx, all.filter((x) => ctx.query.kind === undefined || x.kind === ctx.query.kind));
    return { data: page.items, pagination: page.pagination };
  },
`,
  );
  const handlerImports = 'import type { Handler } from "../request-context.js";\n';
  copy.importOnce(
    "src/sandbox/handlers/index.ts",
    handlerImports,
    'import { paginate } from "../request-context.js";\n',
  );
  copy.importOnce("src/sandbox/handlers/index.ts", handlerImports, 'import { notFound } from "../sandbox-error.js";\n');
  fillRecord("interactions", "src/mcp/catalog.ts", "  peptideInteractions: null,\n");
  copy.insertAfter(
    `src/commands/${SMALL_NOUN}/defs.ts`,
    "export const defs: CommandDef[] = [\n",
    `  {
    path: ["peptides", "interactions"],
    summary: "List a profile's interactions",
    args: [{ name: "slug", description: "peptide slug; several, or - to read them from standard input", required: true, variadic: true }],
    options: [...ENDPOINTS.peptideInteractions.options, ...BATCH_OPTIONS],
    list: true,
    calls: "peptideInteractions",
    examples: ["pep --sandbox peptides interactions ${SLUG} --kind synergy"],
  },
`,
  );
  copy.importOnce(
    `src/commands/${SMALL_NOUN}/defs.ts`,
    'import type { CommandDef } from "../../core/command.js";\n',
    'import { ENDPOINTS } from "../../api/endpoints.js";\n',
  );
  copy.write(
    "README.md",
    `${readFileSync(path.join(copyDir(), "README.md"), "utf8")}\n## Interactions\n\n\`\`\`sh\npep --sandbox peptides interactions ${SLUG} --kind synergy\n\`\`\`\n`,
  );
  copy.write(
    "docs/api.md",
    `${readFileSync(path.join(copyDir(), "docs/api.md"), "utf8")}\n## Interactions\n\n\`GET /peptides/{slug}/interactions\` lists a profile's interactions, filtered by \`kind\`.\n`,
  );
}

describe("adding an endpoint, as docs/adding-an-endpoint.md says", () => {
  it("the guide lists its files, and every file it names exists (or is the new noun's)", () => {
    expect(LISTED.length).toBeGreaterThan(0);
    const named = [
      ...GUIDE.matchAll(/`((?:src|test|docs|scripts)\/[\w./<>-]+\.(?:ts|md|mjs)|README\.md|package\.json)`/g),
    ].map((m) => m[1]!);
    const missing = [...new Set(named)].filter(
      (f) => !f.includes("<noun>") && !existsSync(path.join(ROOT, f.replace(/#.*$/, ""))),
    );
    expect(missing).toEqual([]);
    // Files the guide names by their name alone (`word-stock.ts`): somewhere in src/.
    const inSrc = new Set(
      readdirSync(path.join(ROOT, "src"), { recursive: true, encoding: "utf8" }).map((f) => path.basename(f)),
    );
    const bare = [...GUIDE.matchAll(/`([\w-]+\.ts)`/g)].map((m) => m[1]!);
    expect(bare.filter((f) => !inSrc.has(f))).toEqual([]);
  });

  it("the descriptors alone: the compiler names the files of the guide's table, and no other", () => {
    writeDescriptors();
    edits("interactions").insertAfter(
      "src/api/endpoints.ts",
      "export const ENDPOINTS = {\n",
      `  peptideInteractions: e("peptideInteractions", { path: "/peptides/{slug}/interactions", scope: "research:read", query: "options", resource: "generic", list: true }),\n`,
    );
    const named = copy.typeErrors();
    expect(named).toEqual([
      "src/mcp/catalog.ts",
      "src/output/card-layouts.ts",
      "src/output/table-column-specs.ts",
      "src/sandbox/handlers/index.ts",
    ]);
    const table = GUIDE.slice(GUIDE.indexOf("## 2."), GUIDE.indexOf("## 3."));
    for (const file of named) expect(table).toContain(`\`${file}\``);
    // One full type-check of the copy: 17 s alone on a 2-core machine, more beside other files.
  }, 120_000);

  it("filled in, the copy compiles, each shape having changed only files of its list", () => {
    fillNamedRecords();
    writeSandboxData();
    writeCommands();
    writeDocuments();
    // The list under a path parameter starts again from the guide: its descriptor in full.
    copy.replaceOnce(
      "src/api/endpoints.ts",
      `  peptideInteractions: e("peptideInteractions", { path: "/peptides/{slug}/interactions", scope: "research:read", query: "options", resource: "generic", list: true }),\n`,
      "",
    );
    writeInteractions();
    expect(copy.typeErrors()).toEqual([]);
    // A new list and get under a new noun touch every file of the list; no loader, no code file.
    expect([...touched.widgets].sort()).toEqual([...LISTED].sort());
    // A list under a path parameter, under a noun that exists: the six files of the smallest list.
    expect(SMALLEST).toHaveLength(6);
    expect([...touched.interactions].sort()).toEqual([...SMALLEST].sort());
    expect(copy.changedFiles()).toEqual([...new Set([...touched.widgets, ...touched.interactions])].sort());
  }, 120_000);

  it("the list under a path parameter: each slug's list in order, its filter's choices, a missing slug, a bad one", async () => {
    const one = await copy.pep(["--sandbox", "peptides", "interactions", SLUG, "--kind", "synergy", "-o", "json"]);
    expect(one.code, one.err).toBe(0);
    expect(JSON.parse(one.out)).toEqual([
      { id: `${SLUG}~1`, kind: "synergy" },
      { id: `${SLUG}~3`, kind: "synergy" },
    ]);
    const other = "drotarin-4";
    const two = await copy.pep(["--sandbox", "peptides", "interactions", other, SLUG, "-o", "ndjson"]);
    expect(two.code, two.err).toBe(0);
    expect(
      two.out
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual([1, 2, 3].map((i) => `${other}~${i}`).concat([1, 2, 3].map((i) => `${SLUG}~${i}`)));
    const green = await copy.pep(["--sandbox", "peptides", "interactions", SLUG, "--kind", "green"]);
    expect(green.code).toBe(2);
    expect(green.err).toContain("--kind");
    const missing = await copy.pep(["--sandbox", "peptides", "interactions", "no-such-peptide"]);
    expect(missing.code).toBe(4);
    const bad = await copy.pep(["--sandbox", "peptides", "interactions", ".."]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("<slug>");
    const csv = await copy.pep(["--sandbox", "peptides", "interactions", SLUG, "-o", "csv"]);
    expect(csv.out.split("\r\n")[0]).toBe("id,kind");
    const help = await copy.pep(["peptides", "interactions", "--help"]);
    expect(help.out).toContain("--kind <kind>");
  });

  it("the list: its filter, the CSV header of its resource, and the descriptor's default limit", async () => {
    const csv = await copy.pep(["--sandbox", NOUN, "list", "--size", "2", "-o", "csv"]);
    expect(csv.code, csv.err).toBe(0);
    expect(csv.out).toBe("id,name,size,other\r\nwdg_1_2,Widget 2,2,\r\nwdg_1_5,Widget 5,2,\r\n");

    const json = await copy.pep(["--sandbox", NOUN, "-o", "json"]);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out)).toHaveLength(DEFAULT_LIMIT);
    expect(json.err).toMatch(/to continue: pep .*--cursor=/);

    const help = await copy.pep([NOUN, "list", "--help"]);
    expect(help.out).toContain("List the widgets");
    expect(help.out).toContain("--size <n>");
    expect(help.out.replace(/\s+/g, " ")).toContain(`(default: ${DEFAULT_LIMIT})`);
  });

  it("the get: one id, several in order, a missing one, a malformed one refused before any request", async () => {
    const one = await copy.pep(["--sandbox", NOUN, "get", "wdg_1_3", "-o", "json"]);
    expect(one.code, one.err).toBe(0);
    expect(JSON.parse(one.out)).toEqual({ id: "wdg_1_3", name: "Widget 3", size: 3 });

    const two = await copy.pep(["--sandbox", NOUN, "get", "wdg_1_4", "wdg_1_1", "-o", "ndjson"]);
    expect(two.code, two.err).toBe(0);
    expect(
      two.out
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(["wdg_1_4", "wdg_1_1"]);

    const missing = await copy.pep(["--sandbox", NOUN, "get", "wdg_9_9"]);
    expect(missing.code).toBe(4);
    const bad = await copy.pep(["--sandbox", NOUN, "get", ".."]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("<id>");
  });

  it("root help, completion, man pages and the README's examples name both commands", async () => {
    const root = await copy.pep(["--help"]);
    expect(root.out).toMatch(/^\s+widgets\b/m);
    const completion = await copy.pep(["completion", "bash"]);
    expect(completion.out).toContain("widgets");
    expect(completion.out).toContain("--size");

    const { docSources, COMMANDS } =
      await copy.load<typeof import("../../src/commands/registry.js")>("src/commands/registry.ts");
    const { renderManPages } = await copy.load<typeof import("../../src/docs/man-pages.js")>("src/docs/man-pages.ts");
    const pages = renderManPages(docSources("0.0.0"));
    const page = pages.find((p) => p.file === `pep-${NOUN}.1`)?.text ?? "";
    expect(page).toContain("GET /widgets");
    expect(page).toContain("GET /widgets/{id}");
    expect(pages.find((p) => p.file === "pep.1")?.text).toContain("id, name, size, other");

    // What test/docs/examples.test.ts asks of the README: an example for every command.
    const readme = markdownExamples("README.md", readFileSync(path.join(copy.dir, "README.md"), "utf8"));
    const words = readme.map((e) => (pepWords(e.line) ?? []).filter((w) => !w.startsWith("-")).join(" "));
    for (const def of COMMANDS.filter((d) => d.path[0] === NOUN))
      expect(
        words.some((w) => w.startsWith(def.path.join(" "))),
        def.path.join(" "),
      ).toBe(true);
  });

  it("the MCP tool: listed with its argument from the endpoint's options, and called", async () => {
    const rpc = rawSession(
      { id: 2, method: "tools/list" },
      { id: 3, method: "tools/call", params: { name: "list_widgets", arguments: { size: 3 } } },
    );
    const mcp = await copy.pep(["--sandbox", "mcp"], rpc);
    expect(mcp.code, mcp.err).toBe(0);
    const answers = mcp.out
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { id?: number; result?: Record<string, unknown> });
    const tools = answers.find((a) => a.id === 2)?.result?.tools as Array<{
      name: string;
      inputSchema: { properties: Record<string, unknown> };
    }>;
    expect(tools.find((t) => t.name === "list_widgets")?.inputSchema.properties).toHaveProperty("size");
    expect(JSON.stringify(answers.find((a) => a.id === 3)?.result)).toContain("wdg_1_3");
  });
});
