/**
 * `pep mcp`: the API's read endpoints as Model Context Protocol tools over stdio.
 *
 * The description is built from the tool catalog (plain data), so help and the man page
 * name every tool and its arguments without loading a schema or the protocol library.
 */
import type { CommandDef } from "../../core/command.js";
import { TOOLS, toolArgs } from "../../mcp/catalog.js";

/** The snippet that registers `pep mcp` in a client's configuration (mcpServers). */
export const CLIENT_CONFIG = [
  "{",
  '  "mcpServers": {',
  '    "pep": {',
  '      "command": "pep",',
  '      "args": ["mcp"],',
  '      "env": { "PEP_BASE_URL": "https://<host>/v1", "PEP_PROFILE": "default" }',
  "    }",
  "  }",
  "}",
];

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** Each tool: its name and arguments, then what it does (and the scope a keyed one needs). */
function toolLines(): string[] {
  return TOOLS.flatMap((t) => {
    const keyed = t.scope === "research:read" || t.scope === "studies:read" ? "" : ` Needs a key with ${t.scope}.`;
    const [first = "", ...rest] = wrap(`${t.name}(${toolArgs(t).join(", ")})`, 72);
    return [first, ...rest.map((l) => `  ${l}`), ...wrap(t.summary + keyed, 68).map((l) => `    ${l}`)];
  });
}

const indent = (lines: readonly string[]) => lines.map((l) => `  ${l}`).join("\n");

function mcpDescription(): string {
  return [
    "Speaks the Model Context Protocol on standard input and output, for any client that starts local MCP servers " +
      "(desktop chat applications, code editors). Standard output carries the protocol only; notices and " +
      "diagnostics go to standard error. It runs until the client closes its end of the pipe, or Ctrl-C.",
    "It uses the same settings as every other command: base URL and key from the profile, PEP_API_KEY or " +
      "--api-key-file <path> (not -, since standard input is the protocol), with the same retries, pacing, ETag cache " +
      "and response size limit. `pep mcp --sandbox` serves the built-in synthetic sandbox instead, for trying it out.",
    "Register it in the client's configuration (the file and its place depend on the client):",
    indent(CLIENT_CONFIG),
    "Tools and their arguments (lists take limit and cursor and return next_cursor; at most 100 items a call):",
    indent(toolLines()),
    "Each result is structured JSON matching the tool's declared output schema, with a short text rendering. Every " +
      "result carries the research-only notice, the API's affiliate disclosure when it sends one, and sandbox: true " +
      'with a "synthetic sandbox data" notice when the data is the sandbox\'s. Text from the API is cleaned of ' +
      "control characters. A failure is a tool error with the same message, codes and hints as the command line " +
      "(401 and 403 name the scope the key lacks; 429 says when to try again). Tools that need a key with another " +
      "scope are listed too, and say which scope is missing when called.",
    "What it never does: it sends only GET requests (no tool writes anything, anywhere), it never returns dose " +
      "figures, regimens or reconstitution instructions (the API holds none), and the API key never appears in a " +
      "result, a tool error or a log line.",
  ].join("\n\n");
}

export const defs: CommandDef[] = [
  {
    path: ["mcp"],
    summary: "Serve the API's read endpoints as Model Context Protocol tools over stdio",
    // Built when help or a man page is made, not when the program loads: the tool lines
    // are worked out from the catalog, and every other command would pay for them.
    describe: mcpDescription,
    examples: [
      "pep mcp   # started by the client, not by hand",
      "pep mcp --sandbox   # synthetic data, no key needed",
      "pep mcp --profile work --retries 1",
    ],
    defaultFormat: "json",
    stdioProtocol: true,
  },
];
