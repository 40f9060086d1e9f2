/**
 * The tool list the quick start answers `tools/list` with: each tool's entry of the
 * server's answer, as JSON, by name (`tool-list.ts` renders it). None here: the build
 * (scripts/build.mjs) puts the table in place of this module in dist/mcp-early.js only,
 * so the program, and a run from the sources, lists tools through the SDK's server.
 */
export const EARLY_TOOLS: Readonly<Record<string, string>> | undefined = undefined;
