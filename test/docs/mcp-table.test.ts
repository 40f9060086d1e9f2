/**
 * The tools table of docs/mcp.md, between `<!-- mcp-tools:start -->` and
 * `<!-- mcp-tools:end -->`, is generated from the tool catalog and the endpoint
 * descriptors (src/mcp/tools-table.ts): this test fails when it is stale, and
 * `npm run mcp-table` rewrites it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LIBRARY_TOOLS, TOOLS } from "../../src/mcp/catalog.js";
import { toolsTable, withToolsTable } from "../../src/mcp/tools-table.js";
import { ROOT } from "../helpers/cli.js";

const FILE = path.join(ROOT, "docs", "mcp.md");

describe("docs/mcp.md: the tools table", () => {
  it("is the one the catalog and the endpoint descriptors give", () => {
    const text = readFileSync(FILE, "utf8");
    const want = withToolsTable(text);
    expect(want, "docs/mcp.md has the mcp-tools markers").toBeDefined();
    expect(text === want, "stale: run `npm run mcp-table`").toBe(true);
    // One row a tool, the library's own too: the count is the catalog's, never written down.
    expect(toolsTable().split("\n")).toHaveLength(TOOLS.length + LIBRARY_TOOLS.length + 2);
  });
});
