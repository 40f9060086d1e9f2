/**
 * docs/adding-an-endpoint.md, followed on a copy of src/ with a made-up `GET /widgets`:
 * the descriptor alone makes the compiler name exactly the places the guide lists; with
 * them filled in (and the command, its loader and its registration), the copy compiles,
 * and the new endpoint's command, help, completion, man page, CSV header and MCP tool
 * all appear, from a run of the copy's own program against its own sandbox.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { rawSession } from "../helpers/mcp-client.js";

let copy: string;

beforeAll(() => {
  copy = mkdtempSync(path.join(os.tmpdir(), "pep-endpoint-"));
  cpSync(path.join(ROOT, "src"), path.join(copy, "src"), { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"));
  const tsconfig = JSON.parse(readFileSync(path.join(ROOT, "tsconfig.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(path.join(copy, "tsconfig.json"), JSON.stringify({ ...tsconfig, include: ["src"] }));
  writeFileSync(path.join(copy, "package.json"), JSON.stringify({ name: "pep-endpoint-copy", type: "module" }));
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/** Inserts `text` right after `anchor` in the copy's `file` (the anchor must be there once). */
function insertAfter(file: string, anchor: string, text: string): void {
  const p = path.join(copy, file);
  const s = readFileSync(p, "utf8");
  const at = s.indexOf(anchor);
  if (at === -1 || s.indexOf(anchor, at + 1) !== -1)
    throw new Error(`${file}: the anchor must be there once: ${anchor}`);
  writeFileSync(p, s.slice(0, at + anchor.length) + text + s.slice(at + anchor.length));
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
  writeFileSync(path.join(copy, file), text);
}

/** The files tsc reports errors in, or [] when the copy compiles. */
function typeErrors(): string[] {
  try {
    execFileSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "."], {
      cwd: copy,
      encoding: "utf8",
    });
    return [];
  } catch (err) {
    const out = String((err as { stdout?: string }).stdout ?? "");
    if (!/error TS/.test(out)) throw err;
    return [...new Set([...out.matchAll(/^(src\/[^(]+)\(\d+,\d+\): error/gm)].map((m) => m[1]!))].sort();
  }
}

/** Step 1 of the guide: the descriptor, its options and its resource. */
function writeDescriptor(): void {
  insertAfter(
    "src/api/endpoints.ts",
    "const builders = {\n",
    "  widgets: () => z.strictObject({ size: opt(intIn(1, 9)), limit: opt(limit(LIMITS.pageMax)), cursor: opt(cursor()) }),\n",
  );
  insertAfter(
    "src/api/endpoints.ts",
    "export const ENDPOINTS = {\n",
    `  widgets: e("widgets", {
    path: "/widgets",
    scope: "research:read",
    query: "widgets",
    resource: "widget",
    list: true,
    options: [{ key: "size", long: "size", value: "n", param: "size", description: "only widgets of this size" }],
  }),
`,
  );
  insertAfter(
    "src/api/resources.ts",
    "export const RESOURCES = {\n",
    `  widget: { nouns: ["widget", "widgets"], csv: ["id", "name", "size"] },\n`,
  );
}

/** Step 2: what the compiler names. */
function fillNamedPlaces(): void {
  insertAfter(
    "src/output/table-column-specs.ts",
    "const DEFAULTS: Record<Resource, ColumnSpec[] | null> = {\n",
    `  widget: [
    { header: "ID", paths: ["id"], fixed: true, priority: 100 },
    { header: "NAME", paths: ["name"], priority: 90, min: 16 },
  ],
`,
  );
  insertAfter(
    "src/output/card-layouts.ts",
    "const LAYOUTS: Record<Resource, CardLayout> = {\n",
    "  widget: GENERIC,\n",
  );
  insertAfter(
    "src/sandbox/handlers/index.ts",
    "export const HANDLERS: Record<EndpointName, Handler> = {\n",
    `  widgets: (ctx) => {
    const all = [1, 2, 3].map((n) => ({ id: \`w-\${n}\`, name: \`Widget \${n}\`, size: n }));
    const page = paginate(ctx, all.filter((w) => ctx.query.size === undefined || w.size === ctx.query.size));
    return { data: page.items, pagination: page.pagination };
  },
`,
  );
  insertAfter(
    "src/sandbox/handlers/index.ts",
    'import type { Handler } from "../request-context.js";\n',
    'import { paginate } from "../request-context.js";\n',
  );
  insertAfter(
    "src/mcp/catalog.ts",
    "const TOOL_OF: Readonly<Record<EndpointName, ToolEntry | null>> = {\n",
    `  widgets: {
    name: "list_widgets",
    group: "research",
    title: "List widgets",
    summary: "The widgets, by size.",
    endpoint: "widgets",
    scope: "research:read",
    list: true,
    params: ["size", "limit", "cursor"],
    defaultLimit: 20,
  },
`,
  );
}

/** Step 3: the command, its code, its registration and its loader. */
function writeCommand(): void {
  write(
    "src/commands/widgets/defs.ts",
    `import { ENDPOINTS } from "../../api/endpoints.js";
import type { CommandDef } from "../../core/command.js";

export const defs: CommandDef[] = [
  {
    path: ["widgets"],
    summary: "List the widgets",
    options: ENDPOINTS.widgets.options,
    list: true,
    defaultLimit: 20,
    calls: "widgets",
    examples: ["pep --sandbox widgets --size 2"],
  },
];
`,
  );
  write(
    "src/commands/widgets/list.ts",
    `import { ENDPOINTS } from "../../api/endpoints.js";
import type { ListRun } from "../../core/command.js";
import { runList } from "../shared/list.js";

export const run: ListRun = ({ opts }, ctx) => runList(ctx, opts, { endpoint: ENDPOINTS.widgets });
`,
  );
  insertAfter("src/commands/registry.ts", "  ...meta,\n", "  ...widgets,\n");
  insertAfter(
    "src/commands/registry.ts",
    'import { defs as meta } from "./meta/defs.js";\n',
    'import { defs as widgets } from "./widgets/defs.js";\n',
  );
  insertAfter(
    "src/commands/loaders.ts",
    "export const LOADERS: Readonly<Record<string, () => Promise<CommandModule>>> = {\n",
    '  widgets: () => import("./widgets/list.js"),\n',
  );
}

async function pep(argv: string[], stdin?: string) {
  const { run } = (await import(path.join(copy, "src/cli/main.ts"))) as typeof import("../../src/cli/main.js");
  const { testIO } = (await import(path.join(copy, "src/core/io.ts"))) as typeof import("../../src/core/io.js");
  const io = testIO({
    env: { PEP_CONFIG_DIR: path.join(copy, "config"), PEP_CACHE_DIR: path.join(copy, "cache") },
    ...(stdin === undefined ? {} : { stdin }),
  });
  const code = await run(argv, { io });
  return { code, out: io.out(), err: io.err() };
}

describe("adding an endpoint, as docs/adding-an-endpoint.md says", () => {
  it("the descriptor alone: the compiler names the places the guide lists, and no other", () => {
    writeDescriptor();
    const named = typeErrors();
    expect(named).toEqual([
      "src/mcp/catalog.ts",
      "src/output/card-layouts.ts",
      "src/output/table-column-specs.ts",
      "src/sandbox/handlers/index.ts",
    ]);
    const guide = readFileSync(path.join(ROOT, "docs/adding-an-endpoint.md"), "utf8");
    for (const file of named) expect(guide).toContain(`\`${file}\``);
    // One full type-check of the copy: 17 s alone on a 2-core machine, more beside other files.
  }, 120_000);

  it("filled in: the copy compiles, and the command, help, completion, man page, CSV header and MCP tool appear", async () => {
    fillNamedPlaces();
    writeCommand();
    expect(typeErrors()).toEqual([]);

    const csv = await pep(["--sandbox", "widgets", "--size", "2", "-o", "csv"]);
    expect(csv.code, csv.err).toBe(0);
    expect(csv.out).toBe("id,name,size,other\r\nw-2,Widget 2,2,\r\n");

    const help = await pep(["widgets", "--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toContain("List the widgets");
    expect(help.out).toContain("--size <n>");
    const root = await pep(["--help"]);
    expect(root.out).toMatch(/^\s+widgets\b.*List the widgets/m);

    const completion = await pep(["completion", "bash"]);
    expect(completion.code).toBe(0);
    expect(completion.out).toContain("widgets");
    expect(completion.out).toContain("--size");

    const { docSources } = (await import(
      path.join(copy, "src/commands/registry.ts")
    )) as typeof import("../../src/commands/registry.js");
    const { renderManPages } = (await import(
      path.join(copy, "src/docs/man-pages.ts")
    )) as typeof import("../../src/docs/man-pages.js");
    const pages = renderManPages(docSources("0.0.0"));
    const page = pages.find((p) => p.file === "pep-widgets.1");
    expect(page?.text).toContain("GET /widgets");
    expect(pages.find((p) => p.file === "pep.1")?.text).toContain("id, name, size, other");

    // The MCP tool, as a client lists it (with its argument from the endpoint's options) and calls it.
    const rpc = rawSession(
      { id: 2, method: "tools/list" },
      { id: 3, method: "tools/call", params: { name: "list_widgets", arguments: { size: 3 } } },
    );
    const mcp = await pep(["--sandbox", "mcp"], rpc);
    expect(mcp.code, mcp.err).toBe(0);
    const answers = mcp.out
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { id?: number; result?: Record<string, unknown> });
    const tools = answers.find((a) => a.id === 2)?.result?.tools as Array<{
      name: string;
      inputSchema: { properties: Record<string, unknown> };
    }>;
    const widgets = tools.find((t) => t.name === "list_widgets");
    expect(widgets?.inputSchema.properties).toHaveProperty("size");
    expect(JSON.stringify(answers.find((a) => a.id === 3)?.result)).toContain("w-3");
  }, 120_000);
});
