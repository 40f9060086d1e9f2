/**
 * No import cycles in src/, counting every kind of import (`import type` and `import()`
 * included, as `npm run check:cycles` does with madge): a cycle makes load order matter
 * and hides which module is below which. Also at folder level, at run time: the layers
 * test orders the folders, and this checks the order it implies has no loop.
 */
import { describe, expect, it } from "vitest";
import { folderOf, imports, sources } from "./source-graph.js";

/** The strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cycles(nodes: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) !== indexOf.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of nodes) if (!indexOf.has(v)) visit(v);
  return found;
}

function graph(list: readonly { from: string; to: string }[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const { from, to } of list) edges.set(from, [...(edges.get(from) ?? []), to]);
  return edges;
}

describe("import cycles", () => {
  it("the cycle finder finds one", () => {
    const edges = graph([
      { from: "a", to: "b" },
      { from: "b", to: "c" },
      { from: "c", to: "a" },
      { from: "c", to: "d" },
    ]);
    expect(cycles(["a", "b", "c", "d"], edges)).toEqual([["a", "b", "c"]]);
  });

  it("none between files of src/, whatever the kind of import", () => {
    expect(
      cycles(
        sources.map((s) => s.file),
        graph(imports),
      ),
    ).toEqual([]);
  });

  // api/enums.ts, read from any layer, counts as api's here too: no folder that reads it
  // may be read by api at run time (http reads its page bound; api reads no http).
  it("none between folders of src/ at run time, api/enums.ts counted as api", () => {
    const runtime = imports
      .filter((i) => !i.typeOnly && folderOf(i.from) !== folderOf(i.to))
      .map((i) => ({ from: folderOf(i.from), to: folderOf(i.to) }));
    const folders = [...new Set(sources.map((s) => folderOf(s.file)))];
    expect(cycles(folders, graph(runtime))).toEqual([]);
  });
});
