/**
 * The layers of src/ (CONTRIBUTING.md#layout) as the imports show them, and no function too
 * long to read in one go. Read from the sources with the TypeScript parser, so it needs
 * no build, and counts every kind of import: static, `import type`, `export … from`,
 * `import("…")` and `import("…").Type`.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const SRC = path.join(ROOT, "src");

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

interface SourceFile {
  /** Relative to the repository, with forward slashes: `src/http/client.ts`. */
  file: string;
  ast: ts.SourceFile;
}

const sources: SourceFile[] = readdirSync(SRC, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".ts"))
  .map((e) => {
    const full = path.join(e.parentPath, e.name);
    const file = path.relative(ROOT, full).split(path.sep).join("/");
    return { file, ast: ts.createSourceFile(file, readFileSync(full, "utf8"), ts.ScriptTarget.Latest, true) };
  })
  .sort((a, b) => a.file.localeCompare(b.file));

/** Every module specifier a file names, whatever the kind of import. */
function specifiersOf(ast: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    } else if (ts.isExternalModuleReference(node) && ts.isStringLiteral(node.expression)) {
      found.push(node.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ast);
  return found;
}

interface Import {
  from: string;
  /** The imported file relative to the repository (`src/commands/registry.ts`). */
  to: string;
}

/** Imports between files of src/ (packages and node: modules left out). */
const imports: Import[] = sources.flatMap(({ file, ast }) =>
  specifiersOf(ast)
    .filter((s) => s.startsWith("."))
    .map((s) => ({
      from: file,
      to: path.posix.normalize(path.posix.join(path.posix.dirname(file), s)).replace(/\.js$/, ".ts"),
    })),
);

const under = (dir: string) => (file: string) => file.startsWith(`src/${dir}/`);
const excepted = (i: Import) => LAYER_EXCEPTIONS.includes(`${i.from} -> ${i.to}`);
const show = (list: Import[]) => list.map((i) => `${i.from} imports ${i.to}`);

describe("layers", () => {
  it("the import reader sees every kind of import", () => {
    const ast = ts.createSourceFile(
      "x.ts",
      [
        'import a from "./a.js";',
        'import type { B } from "./b.js";',
        'export { c } from "./c.js";',
        'const d = () => import("./d.js");',
        'type E = import("./e.js").E;',
      ].join("\n"),
      ts.ScriptTarget.Latest,
      true,
    );
    expect(specifiersOf(ast)).toEqual(["./a.js", "./b.js", "./c.js", "./d.js", "./e.js"]);
    expect(imports.length).toBeGreaterThan(500);
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

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression
  | ts.ConstructorDeclaration
  | ts.AccessorDeclaration;

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** A function's name, or the name of what holds it (`const send = async () => …`). */
function nameOf(node: FunctionNode, ast: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name) return node.name.getText(ast);
  const holder = node.parent;
  if ((ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder)) && holder.name)
    return holder.name.getText(ast);
  return "(anonymous)";
}

function longFunctions({ file, ast }: SourceFile): LongFunction[] {
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node)) {
      const first = ast.getLineAndCharacterOfPosition(node.getStart(ast)).line;
      const last = ast.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_FUNCTION_LINES) found.push({ file, line: first + 1, name: nameOf(node, ast), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(ast);
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
