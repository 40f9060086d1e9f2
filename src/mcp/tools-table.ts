/**
 * The tools table of docs/mcp.md, between its `mcp-tools` markers, as the tool catalog and
 * the endpoint descriptors give it: written by `npm run mcp-table` (scripts/mcp-table.mjs),
 * checked by test/docs/mcp-table.test.ts.
 */
import { ENDPOINTS } from "../api/endpoints.js";
import { LIBRARY_TOOLS, TOOLS, toolArgs } from "./catalog.js";

export const TOOLS_TABLE_START = "<!-- mcp-tools:start -->";
export const TOOLS_TABLE_END = "<!-- mcp-tools:end -->";

/** One row a tool: its arguments, endpoint, key scope and limits. */
export function toolsTable(): string {
  const rows = TOOLS.map((t) => {
    const e = ENDPOINTS[t.endpoint];
    const args = toolArgs(t)
      .map((a) => `\`${a}\``)
      .join(", ");
    const limit = t.params.includes("limit") ? `${t.defaultLimit}, ${t.maxLimit}` : "—";
    return `| \`${t.name}\` | ${args} | \`GET ${e.path}\` | ${e.keyRequired ? `\`${e.scope}\`` : "—"} | ${limit} |`;
  });
  // The library's own tools read the local library, no endpoint.
  for (const t of LIBRARY_TOOLS)
    rows.push(
      `| \`${t.name}\` | ${t.args.map((a) => `\`${a}\``).join(", ")} | the local library | — | ${t.defaultLimit}, ${t.maxLimit} |`,
    );
  return ["| tool | arguments | endpoint | key scope | limit (default, most) |", "|---|---|---|---|---|", ...rows].join(
    "\n",
  );
}

/** `text` (docs/mcp.md) with the table between its markers made current; undefined without the markers. */
export function withToolsTable(text: string): string | undefined {
  const a = text.indexOf(TOOLS_TABLE_START);
  const b = text.indexOf(TOOLS_TABLE_END);
  if (a === -1 || b < a) return undefined;
  return `${text.slice(0, a)}${TOOLS_TABLE_START}\n${toolsTable()}\n${text.slice(b)}`;
}
