/**
 * The layers of src/ (CONTRIBUTING.md#layers) as the imports show them, and no function too
 * long to read in one go. Read from the sources with a TypeScript parser
 * (./source-graph.ts), so it needs no build, and counts every kind of import: static,
 * `import type`, `export … from`, `import("…")` and `import("…").Type`.
 */
import { describe, expect, it } from "vitest";
import {
  folderOf,
  type Import,
  imports,
  type Node,
  parse,
  show,
  type SourceFile,
  sources,
  specifiersOf,
  under,
  walk,
} from "./source-graph.js";

/** Longest function, in lines from its first to its last. */
const MAX_FUNCTION_LINES = 80;

/**
 * Functions over the limit in files that are being split right now by other changes
 * (file -> function names). Each entry goes when its file's change lands; a function
 * that grows over the limit elsewhere, or a new one here, fails the test.
 */
const LONG_FUNCTIONS_ALLOWED: Readonly<Record<string, readonly string[]>> = {};

/**
 * Imports against the layers that a change in progress is moving ("from -> to"); each
 * entry goes when its change lands. None today.
 */
const LAYER_EXCEPTIONS: readonly string[] = [];

/**
 * The folders of src/ from the lowest layer up; folders on one line are side by side and
 * do not import each other at run time. A run-time import points down this list, never
 * up or sideways. Type-only imports are erased by the build, so they cannot tie load
 * order: core's shared types (core/command.ts, core/command-context.ts) name the types
 * of the layers they connect.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["core"],
  ["http"],
  ["api"],
  ["config", "output"],
  ["docs", "sandbox", "library"],
  ["mcp", "offline"],
  ["commands"],
  ["cli"],
  ["index"],
];

/** The service's documented values (enums, limits, field lists): imports nothing, read by every layer. */
const ENUMS = "src/api/enums.ts";

const rankOf = (folder: string): number => LAYERS.findIndex((layer) => layer.includes(folder));

const excepted = (i: Import) => LAYER_EXCEPTIONS.includes(`${i.from} -> ${i.to}`);

describe("layers", () => {
  it("the import reader sees every kind of import", () => {
    const text = [
      'import a from "./a.js";',
      'import type { B } from "./b.js";',
      'export { c } from "./c.js";',
      'const d = () => import("./d.js");',
      'type E = import("./e.js").E;',
      'import { type F, type G } from "./fg.js";',
      'import { type H, i } from "./hi.js";',
      'export type { J } from "./j.js";',
      'export * from "./k.js";',
      'import "./l.js";',
      'import m = require("./m.js");',
    ].join("\n");
    expect(specifiersOf(parse("x.ts", text))).toEqual([
      { text: "./a.js", typeOnly: false },
      { text: "./b.js", typeOnly: true },
      { text: "./c.js", typeOnly: false },
      { text: "./d.js", typeOnly: false },
      { text: "./e.js", typeOnly: true },
      { text: "./fg.js", typeOnly: true },
      { text: "./hi.js", typeOnly: false },
      { text: "./j.js", typeOnly: true },
      { text: "./k.js", typeOnly: false },
      { text: "./l.js", typeOnly: false },
      { text: "./m.js", typeOnly: false },
    ]);
    expect(imports).not.toEqual([]);
  });

  it("http, api, output, config, mcp and core never import commands", () => {
    const lower = ["http", "api", "output", "config", "mcp", "core"].map(under);
    const offenders = imports.filter((i) => lower.some((inLayer) => inLayer(i.from)) && under("commands")(i.to));
    expect(show(offenders.filter((i) => !excepted(i)))).toEqual([]);
  });

  it("the exceptions name only imports that are still there", () => {
    const present = new Set(imports.map((i) => `${i.from} -> ${i.to}`));
    expect(LAYER_EXCEPTIONS.filter((e) => !present.has(e))).toEqual([]);
  });

  it("nothing outside src/cli/ imports src/cli/", () => {
    const offenders = imports.filter((i) => !under("cli")(i.from) && under("cli")(i.to));
    expect(show(offenders)).toEqual([]);
  });

  it("at run time, a folder imports only folders of a lower layer (api/enums.ts, plain values, from any)", () => {
    const offenders = imports.filter((i) => {
      if (i.typeOnly || folderOf(i.from) === folderOf(i.to) || i.to === ENUMS) return false;
      return !(rankOf(folderOf(i.to)) < rankOf(folderOf(i.from)));
    });
    expect(show(offenders.filter((i) => !excepted(i)))).toEqual([]);
  });

  it("every folder of src/ has its layer, and api/enums.ts, read from any layer, imports nothing", () => {
    const folders = new Set(sources.map((s) => folderOf(s.file)));
    expect([...folders].filter((f) => !LAYERS.some((layer) => layer.includes(f)))).toEqual([]);
    expect(imports.filter((i) => i.from === ENUMS)).toEqual([]);
  });

  it("type-only imports (erased by the build) never name commands or cli from below them", () => {
    const offenders = imports.filter(
      (i) =>
        i.typeOnly &&
        folderOf(i.from) !== folderOf(i.to) &&
        ["commands", "cli"].includes(folderOf(i.to)) &&
        rankOf(folderOf(i.to)) > rankOf(folderOf(i.from)),
    );
    expect(show(offenders)).toEqual([]);
  });

  it("src/ holds no loose .ts file but index.ts", () => {
    const loose = sources.map((s) => s.file).filter((f) => f.split("/").length === 2 && f !== "src/index.ts");
    expect(loose).toEqual([]);
  });
});

interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/**
 * Where a function starts: a method or accessor at its name (`get size() {…}` in a class
 * or an object), any other function at its own first token.
 */
const holds = (parent: Node | undefined): parent is Node =>
  parent?.type === "MethodDefinition" ||
  (parent?.type === "Property" && (parent.method === true || parent.kind === "get" || parent.kind === "set"));

/** A function's name, or the name of what holds it (`const send = async () => …`). */
function nameOf(node: Node, parent: Node | undefined, text: string): string {
  const id = node.id as Node | null | undefined;
  if (id) return text.slice(id.start, id.end);
  if (parent?.type === "MethodDefinition" && parent.kind === "constructor") return "constructor";
  const key = (
    parent?.type === "MethodDefinition" || parent?.type === "Property"
      ? parent.key
      : parent?.type === "VariableDeclarator"
        ? parent.id
        : undefined
  ) as Node | undefined;
  return key ? text.slice(key.start, key.end) : "(anonymous)";
}

function longFunctions({ file, text, ast }: SourceFile): LongFunction[] {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  /** The 0-based line of an offset: the last line starting at or before it. */
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const found: LongFunction[] = [];
  walk(ast.program, (node, parent) => {
    if (!FUNCTIONS.has(node.type)) return;
    const first = lineOf(holds(parent) ? parent.start : node.start);
    const lines = lineOf(node.end) - first + 1;
    if (lines > MAX_FUNCTION_LINES) found.push({ file, line: first + 1, name: nameOf(node, parent, text), lines });
  });
  return found;
}

describe(`functions in src/ (at most ${MAX_FUNCTION_LINES} lines)`, () => {
  const long = sources.flatMap(longFunctions);
  const allowed = (f: LongFunction) => LONG_FUNCTIONS_ALLOWED[f.file]?.includes(f.name) === true;

  it("are short enough to read in one go: split a longer one into named steps", () => {
    const offenders = long.filter((f) => !allowed(f)).map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines} lines`);
    expect(offenders).toEqual([]);
  });

  it("the allow-list names only functions still over the limit", () => {
    const stillLong = new Set(long.map((f) => `${f.file} ${f.name}`));
    const stale = Object.entries(LONG_FUNCTIONS_ALLOWED).flatMap(([file, names]) =>
      names.filter((n) => !stillLong.has(`${file} ${n}`)).map((n) => `${file} ${n}`),
    );
    expect(stale).toEqual([]);
  });
});
