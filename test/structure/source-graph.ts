/**
 * src/ as the structure checks read it: every .ts file parsed (oxc-parser, an ESTree
 * parser of TypeScript; no build needed), and every import between them, of every kind
 * (static, `import type`, `export … from`, `import("…")`, `import("…").Type`,
 * `import x = require("…")`), each marked run-time or type-only (erased by the build).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Comment, parseSync, visitorKeys } from "oxc-parser";
import { ROOT } from "../helpers/cli.js";

export const SRC = path.join(ROOT, "src");

/** A node of the tree, as far as these checks read it: its kind, its span, its fields. */
export interface Node {
  type: string;
  start: number;
  end: number;
  [field: string]: unknown;
}

export interface Parsed {
  program: Node;
  comments: Comment[];
}

/** One file parsed as TypeScript; a syntax error fails the check that reads it, naming the file. */
export function parse(file: string, text: string): Parsed {
  const result = parseSync(file, text, { lang: "ts", sourceType: "module" });
  if (result.errors.length > 0) throw new Error(`${file} does not parse: ${result.errors[0]!.message}`);
  return { program: result.program as unknown as Node, comments: result.comments };
}

const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";

/** Calls `visit` on every node under `root` (itself included) with its parent, in source order. */
export function walk(root: Node, visit: (node: Node, parent: Node | undefined) => void): void {
  const go = (node: Node, parent: Node | undefined) => {
    visit(node, parent);
    for (const key of visitorKeys[node.type] ?? []) {
      const child = node[key];
      if (Array.isArray(child)) for (const c of child) isNode(c) && go(c, node);
      else if (isNode(child)) go(child, node);
    }
  };
  go(root, undefined);
}

export interface SourceFile {
  /** Relative to the repository, with forward slashes: `src/http/client.ts`. */
  file: string;
  text: string;
  ast: Parsed;
}

export const sources: SourceFile[] = readdirSync(SRC, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".ts"))
  .map((e) => {
    const full = path.join(e.parentPath, e.name);
    const file = path.relative(ROOT, full).split(path.sep).join("/");
    const text = readFileSync(full, "utf8");
    return { file, text, ast: parse(file, text) };
  })
  .sort((a, b) => a.file.localeCompare(b.file));

export interface Specifier {
  text: string;
  /** Erased by the build: `import type`, `export type`, every named import a type, or an import type node. */
  typeOnly: boolean;
}

const stringOf = (node: unknown): string | undefined =>
  isNode(node) && node.type === "Literal" && typeof node.value === "string" ? node.value : undefined;

/** An `import`/`export … from` the build erases: marked `type`, or naming only types. */
function declarationIsTypeOnly(node: Node): boolean {
  const kind = node.type === "ImportDeclaration" ? "importKind" : "exportKind";
  if (node[kind] === "type") return true;
  if (node.type === "ExportAllDeclaration") return false;
  const specifiers = (node.specifiers ?? []) as Node[];
  // A side-effect import (`import "./x.js"`) runs the module; a default or namespace import
  // is a value.
  return (
    specifiers.length > 0 &&
    specifiers.every((s) => (s.type === "ImportSpecifier" || s.type === "ExportSpecifier") && s[kind] === "type")
  );
}

/** Every module specifier a file names, whatever the kind of import. */
export function specifiersOf(ast: Parsed): Specifier[] {
  const found: Specifier[] = [];
  walk(ast.program, (node) => {
    let text: string | undefined;
    let typeOnly = false;
    switch (node.type) {
      case "ImportDeclaration":
      case "ExportNamedDeclaration":
      case "ExportAllDeclaration":
        text = stringOf(node.source);
        typeOnly = text !== undefined && declarationIsTypeOnly(node);
        break;
      case "ImportExpression":
        text = stringOf(node.source);
        break;
      case "TSImportType":
        text = stringOf(node.source);
        typeOnly = true;
        break;
      case "TSExternalModuleReference":
        text = stringOf(node.expression);
        break;
    }
    if (text !== undefined) found.push({ text, typeOnly });
  });
  return found;
}

export interface Import {
  from: string;
  /** The imported file relative to the repository (`src/commands/registry.ts`). */
  to: string;
  typeOnly: boolean;
}

/** Imports between files of src/ (packages and node: modules left out). */
export const imports: Import[] = sources.flatMap(({ file, ast }) =>
  specifiersOf(ast)
    .filter((s) => s.text.startsWith("."))
    .map((s) => ({
      from: file,
      to: path.posix.normalize(path.posix.join(path.posix.dirname(file), s.text)).replace(/\.js$/, ".ts"),
      typeOnly: s.typeOnly,
    })),
);

/** The packages and built-in modules a file imports at run time (`node:fs`, `undici`). */
export function externalRuntimeImports(source: SourceFile): string[] {
  return specifiersOf(source.ast)
    .filter((s) => !s.text.startsWith(".") && !s.typeOnly)
    .map((s) => s.text);
}

/** The folder of src/ a file is in (`http`), or `index` for src/index.ts. */
export function folderOf(file: string): string {
  const parts = file.split("/");
  return parts.length > 2 ? parts[1]! : "index";
}

export const under = (dir: string) => (file: string) => file.startsWith(`src/${dir}/`);
export const show = (list: readonly Import[]) => list.map((i) => `${i.from} imports ${i.to}`);

/** The comments at the head of a file, before its first statement. */
export function headOf(source: SourceFile): string {
  const body = source.ast.program.body as Node[];
  const first = body[0]?.start ?? source.text.length;
  return source.ast.comments
    .filter((c) => c.end <= first)
    .map((c) => source.text.slice(c.start, c.end))
    .join("\n");
}
