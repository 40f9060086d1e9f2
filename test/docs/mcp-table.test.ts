/**
 * The tools table of docs/mcp.md, between `<!-- mcp-tools:start -->` and
 * `<!-- mcp-tools:end -->`, is generated from the tool catalog and the endpoint
 * descriptors: this test fails when it is stale, and with PEP_UPDATE_DOCS=1 rewrites it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../src/api/endpoints.js";
import { TOOLS, toolArgs } from "../../src/mcp/catalog.js";
import { ROOT } from "../helpers/cli.js";

const FILE = path.join(ROOT, "docs", "mcp.md");
const START = "<!-- mcp-tools:start -->";
const END = "<!-- mcp-tools:end -->";

/** The table as the catalog and the descriptors say it. */
function toolsTable(): string {
  const rows = TOOLS.map((t) => {
    const e = ENDPOINTS[t.endpoint];
    const args = toolArgs(t)
      .map((a) => `\`${a}\``)
      .join(", ");
    const limit = t.params.includes("limit") ? `${t.defaultLimit}, ${t.maxLimit}` : "—";
    return `| \`${t.name}\` | ${args} | \`GET ${e.path}\` | ${e.keyRequired ? `\`${e.scope}\`` : "—"} | ${limit} |`;
  });
  return ["| tool | arguments | endpoint | key scope | limit (default, most) |", "|---|---|---|---|---|", ...rows].join(
    "\n",
  );
}

describe("docs/mcp.md: the tools table", () => {
  it("is the one the catalog and the endpoint descriptors give", () => {
    const text = readFileSync(FILE, "utf8");
    const a = text.indexOf(START);
    const b = text.indexOf(END);
    expect(a, "docs/mcp.md has the start marker").toBeGreaterThan(-1);
    expect(b, "docs/mcp.md has the end marker").toBeGreaterThan(a);
    const want = `${START}\n${toolsTable()}\n${END}`;
    const have = text.slice(a, b + END.length);
    if (have !== want && process.env.PEP_UPDATE_DOCS === "1")
      writeFileSync(FILE, text.slice(0, a) + want + text.slice(b + END.length));
    else expect(have, "stale: PEP_UPDATE_DOCS=1 npx vitest run test/docs/mcp-table.test.ts").toBe(want);
    // One row a tool: the count is the catalog's, never written down.
    expect(toolsTable().split("\n")).toHaveLength(TOOLS.length + 2);
  });
});
