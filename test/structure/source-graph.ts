/**
 * src/ as the structure checks read it: every .ts file parsed with the TypeScript parser
 * (no build needed), and every import between them, of every kind (static, `import
 * type`, `export … from`, `import("…")`, `import("…").Type`), each marked run-time or
 * type-only (erased by the build).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { ROOT } from "../helpers/cli.js";

export const SRC = path.join(ROOT, "src");

export interface SourceFile {
  /** Relative to the repository, with forward slashes: `src/http/client.ts`. */
  file: string;
  text: string;
  ast: ts.SourceFile;
}

export const sources: SourceFile[] = readdirSync(SRC, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".ts"))
  .map((e) => {
    const full = path.join(e.parentPath, e.name);
    const file = path.relative(ROOT, full).split(path.sep).join("/");
    const text = readFileSync(full, "utf8");
    return { file, text, ast: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true) };
  })
  .sort((a, b) => a.file.localeCompare(b.file));

export interface Specifier {
  text: string;
  /** Erased by the build: `import type`, `export type`, every named import a type, or an import type node. */
  typeOnly: boolean;
}

function declarationIsTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const e = node.exportClause;
    return e !== undefined && ts.isNamedExports(e) && e.elements.length > 0 && e.elements.every((x) => x.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const b = clause.namedBindings;
  return b !== undefined && ts.isNamedImports(b) && b.elements.length > 0 && b.elements.every((x) => x.isTypeOnly);
}

/** Every module specifier a file names, whatever the kind of import. */
export function specifiersOf(ast: ts.SourceFile): Specifier[] {
  const found: Specifier[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier))
        found.push({ text: node.moduleSpecifier.text, typeOnly: declarationIsTypeOnly(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ text: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ text: node.argument.literal.text, typeOnly: true });
    } else if (ts.isExternalModuleReference(node) && ts.isStringLiteral(node.expression)) {
      found.push({ text: node.expression.text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(ast);
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
  return (ts.getLeadingCommentRanges(source.text, 0) ?? []).map((r) => source.text.slice(r.pos, r.end)).join("\n");
}
