/**
 * docs/adding-an-endpoint.md, followed literally on a copy of src/ (and of the two
 * documents it names) with a made-up list, `GET /widgets` with one filter, and a get,
 * `GET /widgets/{id}`, answered by the sandbox from data built with the data set:
 *
 * - the descriptor alone makes the compiler name exactly the files the guide's table names;
 * - the steps change no file outside the guide's list, and the guide names no file that
 *   does not exist;
 * - filled in, the copy compiles, and both commands work from their definitions alone:
 *   the list with its descriptor's default limit, the get with one id, several, a missing
 *   one; help, completion, man pages, the CSV header, the README's examples and the MCP
 *   tools follow.
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
/** The smallest list endpoint's files: it goes under a noun that exists. */
const SMALL_NOUN = "research";
const SMALLEST = listIn("smallest", SMALL_NOUN);
/** The widgets' default `--limit`, said once, in the descriptor the test writes. */
const DEFAULT_LIMIT = 4;

let copy: SrcCopy;

beforeAll(() => {
  copy = copySources("pep-endpoint-", ["README.md", "docs/api.md"]);
});

afterAll(() => copy?.cleanup());

/**
 * Inserts `text` after the line that opens the total record of `file` (the line that
 * declares a `Record<Resource, …>` or `Record<EndpointName, …>` and ends with `{`).
 */
function fillRecord(file: string, text: string): void {
  const source = readFileSync(path.join(copy.dir, file), "utf8");
  const opening = source
    .split("\n")
    .filter((l) => /Record<(Resource|EndpointName),/.test(l) && l.trimEnd().endsWith("{"));
  if (opening.length !== 1) throw new Error(`${file}: one total record expected, found ${opening.length}`);
  copy.insertAfter(file, `${opening[0]}\n`, text);
}

/** Step 1: the descriptors, the query schema and the resource. */
function writeDescriptors(): void {
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
  fillRecord(
    "src/output/table-column-specs.ts",
    `  widget: [
    { header: "ID", paths: ["id"], fixed: true, priority: 100 },
    { header: "NAME", paths: ["name"], priority: 90, min: 16 },
  ],
`,
  );
  fillRecord("src/output/card-layouts.ts", "  widget: GENERIC,\n");
  fillRecord(
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
  copy.insertAfter(
    "src/sandbox/handlers/index.ts",
    'import type { Handler } from "../request-context.js";\n',
    'import { paginate } from "../request-context.js";\nimport { notFound } from "../sandbox-error.js";\n',
  );
  // The MCP tools: their words, and (while the catalog restates them) the endpoint's facts.
  const words = `name: "list_widgets",
    group: "research",
    title: "List widgets",
    summary: "The widgets, by size.",`;
  const restates = /Record<EndpointName, ToolEntry \| null>/.test(
    readFileSync(path.join(copy.dir, "src/mcp/catalog.ts"), "utf8"),
  );
  const facts = `
    endpoint: "widgets",
    scope: "research:read",
    list: true,
    params: ["size", "limit", "cursor"],
    defaultLimit: ${DEFAULT_LIMIT},`;
  fillRecord("src/mcp/catalog.ts", `  widgets: {\n    ${words}${restates ? facts : ""}\n  },\n  widget: null,\n`);
}

/** Step 3: the sandbox's data, made from the seed and the scale. */
function writeSandboxData(): void {
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
  const readme = path.join(copy.dir, "README.md");
  copy.write(
    "README.md",
    `${readFileSync(readme, "utf8")}\n## Widgets\n\n\`\`\`sh\npep --sandbox widgets list --size 2\npep --sandbox widgets get wdg_1_2\n\`\`\`\n`,
  );
  copy.write(
    "docs/api.md",
    `${readFileSync(path.join(copy.dir, "docs/api.md"), "utf8")}\n## Widgets\n\n\`GET /widgets\` lists widgets, filtered by \`size\`; \`GET /widgets/{id}\` answers one.\n`,
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

  it("the descriptor alone: the compiler names the files of the guide's table, and no other", () => {
    writeDescriptors();
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

  it("filled in, the copy compiles, having changed only files of the guide's list", () => {
    fillNamedRecords();
    writeSandboxData();
    writeCommands();
    writeDocuments();
    expect(copy.typeErrors()).toEqual([]);
    const changed = copy.changedFiles();
    expect(changed.filter((f) => !LISTED.includes(f))).toEqual([]);
    expect(changed).toContain(`src/commands/${NOUN}/defs.ts`);
    // A new list and get under a new noun touch every file of the list; no loader, no code file.
    expect(changed.sort()).toEqual([...LISTED].sort());
  }, 120_000);

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

describe("the smallest list endpoint, as docs/adding-an-endpoint.md says: six files", () => {
  let small: SrcCopy;
  beforeAll(() => {
    small = copySources("pep-endpoint-small-", ["README.md", "docs/api.md"]);
  });
  afterAll(() => small?.cleanup());

  it("descriptor, handler, MCP tool, definition and the two documents: the copy compiles and nothing else changed", () => {
    expect(SMALLEST).toHaveLength(6);
    small.insertAfter(
      "src/api/endpoints.ts",
      "export const ENDPOINTS = {\n",
      `  gadgets: e("gadgets", {
    path: "/gadgets",
    scope: "research:read",
    query: "options",
    resource: "generic",
    list: true,
    options: [{ key: "color", long: "color", value: "color", param: "color", choices: ["red", "blue"], description: "only gadgets of this color" }],
  }),
`,
    );
    // Only what the guide's table says for a generic resource.
    expect(small.typeErrors()).toEqual(["src/mcp/catalog.ts", "src/sandbox/handlers/index.ts"]);

    const handlers = readFileSync(path.join(small.dir, "src/sandbox/handlers/index.ts"), "utf8");
    const opening = handlers.split("\n").find((l) => /Record<EndpointName,/.test(l) && l.trimEnd().endsWith("{"))!;
    small.insertAfter(
      "src/sandbox/handlers/index.ts",
      `${opening}\n`,
      `  gadgets: (ctx) => {
    const all = ["red", "blue", "red", "blue", "red"].map((color, i) => ({ id: \`gdg_\${ctx.data.seed}_\${i + 1}\`, color }));
    const page = paginate(ctx, all.filter((g) => ctx.query.color === undefined || g.color === ctx.query.color));
    return { data: page.items, pagination: page.pagination };
  },
`,
    );
    small.insertAfter(
      "src/sandbox/handlers/index.ts",
      'import type { Handler } from "../request-context.js";\n',
      'import { paginate } from "../request-context.js";\n',
    );
    const catalog = readFileSync(path.join(small.dir, "src/mcp/catalog.ts"), "utf8");
    const tools = catalog.split("\n").find((l) => /Record<EndpointName,/.test(l) && l.trimEnd().endsWith("{"))!;
    small.insertAfter("src/mcp/catalog.ts", `${tools}\n`, "  gadgets: null,\n");
    small.insertAfter(
      `src/commands/${SMALL_NOUN}/defs.ts`,
      "export const defs: CommandDef[] = [\n",
      `  {
    path: ["gadgets"],
    summary: "List the gadgets",
    options: ENDPOINTS.gadgets.options,
    list: true,
    calls: "gadgets",
    examples: ["pep --sandbox gadgets --color red"],
  },
`,
    );
    const defs = readFileSync(path.join(small.dir, `src/commands/${SMALL_NOUN}/defs.ts`), "utf8");
    if (!defs.includes('import { ENDPOINTS } from "../../api/endpoints.js";'))
      small.insertAfter(
        `src/commands/${SMALL_NOUN}/defs.ts`,
        'import type { CommandDef } from "../../core/command.js";\n',
        'import { ENDPOINTS } from "../../api/endpoints.js";\n',
      );
    small.write(
      "README.md",
      `${readFileSync(path.join(small.dir, "README.md"), "utf8")}\n## Gadgets\n\n\`\`\`sh\npep --sandbox gadgets --color red\n\`\`\`\n`,
    );
    small.write(
      "docs/api.md",
      `${readFileSync(path.join(small.dir, "docs/api.md"), "utf8")}\n## Gadgets\n\n\`GET /gadgets\` lists gadgets, filtered by \`color\`.\n`,
    );
    expect(small.typeErrors()).toEqual([]);
    expect(small.changedFiles().sort()).toEqual([...SMALLEST].sort());
  }, 120_000);

  it("it works: its filter checked against its choices, the generic CSV columns, its help with the default limit", async () => {
    const red = await small.pep(["--sandbox", "gadgets", "--color", "red", "-o", "json"]);
    expect(red.code, red.err).toBe(0);
    expect((JSON.parse(red.out) as { id: string }[]).map((g) => g.id)).toEqual(["gdg_1_1", "gdg_1_3", "gdg_1_5"]);
    const green = await small.pep(["--sandbox", "gadgets", "--color", "green"]);
    expect(green.code).toBe(2);
    expect(green.err).toContain("--color");
    const csv = await small.pep(["--sandbox", "gadgets", "--limit", "2", "-o", "csv"]);
    expect(csv.out.split("\r\n")[0]).toBe("id,color");
    const help = await small.pep(["gadgets", "--help"]);
    expect(help.out).toContain("--color <color>");
    const { ENDPOINTS } = await small.load<typeof import("../../src/api/endpoints.js")>("src/api/endpoints.ts");
    const gadgets = (ENDPOINTS as unknown as Record<string, { defaultLimit: number }>).gadgets!;
    expect(help.out.replace(/\s+/g, " ")).toContain(`(default: ${gadgets.defaultLimit})`);
  });
});
