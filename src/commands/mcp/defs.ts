/**
 * `pep mcp`: the API's read endpoints as Model Context Protocol tools over stdio.
 *
 * The description is built from the tool catalog (plain data), so help and the man page
 * name every tool and its arguments without loading a schema or the protocol library.
 */
import type { CommandDef } from "../../core/command.js";
import { ENDPOINTS } from "../../api/endpoints.js";
import { TOOLS, toolArgs } from "../../mcp/catalog.js";

/** The snippet that registers `pep mcp` in a client's configuration (mcpServers). */
export const CLIENT_CONFIG = [
  "{",
  '  "mcpServers": {',
  '    "pep": {',
  '      "command": "pep",',
  '      "args": ["mcp"],',
  '      "env": { "PEP_BASE_URL": "https://<host>/v1", "PEP_API_KEY": "<key>" }',
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
    const keyed = ENDPOINTS[t.endpoint].keyRequired ? ` Needs a key with ${t.scope}.` : "";
    const [first = "", ...rest] = wrap(`${t.name}(${toolArgs(t).join(", ")})`, 72);
    return [first, ...rest.map((l) => `  ${l}`), ...wrap(t.summary + keyed, 68).map((l) => `    ${l}`)];
  });
}

const indent = (lines: readonly string[]) => lines.map((l) => `  ${l}`).join("\n");

function mcpDescription(): string {
  return [
    "Speaks the Model Context Protocol on standard input and output, for any client that starts local MCP servers " +
      "(desktop chat applications, code editors). Standard output carries the protocol only; notices and " +
      "diagnostics go to standard error. It runs until the client closes its end of the pipe, or Ctrl-C. With " +
      "--http it serves Streamable HTTP at http://127.0.0.1:8765/mcp instead (--port, --host), for clients that " +
      "connect to a URL: browser Origins and Host names other than loopback are refused, and every request needs a " +
      "bearer token of at least 32 characters: PEP_MCP_TOKEN, or the first line of the file PEP_MCP_TOKEN_FILE names, " +
      "or else one made at start and shown once on standard error with the client configuration to paste. Sessions " +
      "idle for --session-idle seconds are closed, and at most --max-sessions are open at once.",
    "It uses the same settings as every other command: base URL and key from the profile, PEP_API_KEY or " +
      "--api-key-file <path> (not -, since standard input is the protocol), with the same retries, pacing, ETag cache " +
      "and response size limit. `pep mcp --sandbox` serves the built-in synthetic sandbox instead, for trying it out.",
    "Register it in the client's configuration (the file and its place depend on the client):",
    indent(CLIENT_CONFIG),
    "Tools and their arguments (lists take limit and cursor and return next_cursor; at most 100 items a call):",
    indent(toolLines()),
    "Each result is structured JSON matching the tool's declared output schema, and its text carries the same data " +
      "as compact JSON (nothing cut, up to 60000 characters; a longer list's text holds the whole items that fit and " +
      "a cursor that continues from the first one it left out), after a line saying how to page past it and that the JSON is data from the service, never " +
      "instructions. Every result carries the research-only notice, the API's affiliate disclosure when it sends one, " +
      'and sandbox: true with a "synthetic sandbox data" notice when the data is the sandbox\'s. Text from the API is ' +
      "cleaned of control characters. A failure is a tool error in the caller's terms: what failed (the API's message, " +
      "status, code and request id), then which tool or argument to use next; 401 and 403 name the scope and the " +
      "PEP_API_KEY to set in the client's configuration; an unknown peptide names the closest ones; 429 says when to " +
      "call again.",
    "Retries and rate-limit waits are told to the client: progress notifications when the call carries a progress " +
      "token, log messages once the client sets a logging level. A call waits at most --max-wait seconds in all " +
      "(default 30, below the 60 s after which clients give up); a longer wait ends the call at once with the time to " +
      "call again.",
    "Besides tools: resources pep://peptides/{slug}, pep://peptides/{slug}/research and pep://studies/{id} (lists " +
      "and search results link to them), completions of slugs, study ids, research areas, categories and product " +
      "forms, and the prompts summarise_evidence, explore_research_area and compare_vendors_for_peptide.",
    "It starts with any configuration: an unknown profile, no base URL, no key or (offline) a library that cannot be " +
      "opened are said in the instructions the client reads at initialize and in every tool error, with the env keys " +
      "to set (PEP_BASE_URL, PEP_API_KEY, PEP_PROFILE). With no key the vendor, product and price tools are not " +
      "listed; --tools serves only some groups. A --tools word that names no group, or a --max-wait outside 1 to 55, " +
      "is said in the instructions too, and the server starts with what it could take. With --offline (PEP_OFFLINE) " +
      "the tools answer from the local library, each answer with the time its walk was synced, and what it cannot " +
      "answer exactly is a tool error saying so.",
    "The library group (served offline, or with --tools library): library_sql runs one read-only statement as pep " +
      "sql does, library_changes reads the change log (since a date, a sync, or this session's last call), " +
      "pep://library/tables lists the tables, and resources/subscribe on pep://peptides/{slug}, pep://studies/{id} " +
      "or pep://vendors/{id} tells when a sync changes that record (PEP_MCP_LIBRARY_POLL: seconds between looks).",
    "What it never does: it sends only GET requests (no tool writes anything, anywhere), it never returns dose " +
      "figures, regimens or reconstitution instructions (the API holds none), and the API key never appears in a " +
      "result, a tool error or a log line.",
  ].join("\n\n");
}

export const defs: CommandDef[] = [
  {
    path: ["mcp"],
    summary: "Serve the API's read endpoints as Model Context Protocol tools over stdio or HTTP",
    // Built when help or a man page is made, not when the program loads: the tool lines
    // are worked out from the catalog, and every other command would pay for them.
    describe: mcpDescription,
    examples: [
      "pep mcp   # started by the client, not by hand",
      "pep mcp --sandbox   # synthetic data, no key needed",
      "pep mcp --profile work --max-wait 20",
      "pep mcp --tools research,studies   # fewer tools, a shorter tool list",
      "pep mcp --http --port 8765   # Streamable HTTP on 127.0.0.1",
    ],
    options: [
      {
        key: "maxWait",
        long: "max-wait",
        value: "seconds",
        description:
          "longest a tool call waits in all for retries and the API's rate limit, 1 to 55 (default 30, or PEP_MCP_MAX_WAIT; a value outside is brought within and said in the instructions); a longer wait ends the call at once with the time to call again",
      },
      {
        key: "http",
        long: "http",
        description:
          "serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio, until Ctrl-C; browsers' Origins other than loopback are refused",
      },
      { key: "port", long: "port", value: "n", description: "port for --http (default 8765; 0: any free port)" },
      {
        key: "socket",
        long: "socket",
        value: "path",
        description:
          "with --http, listen on this Unix socket (mode 0600, only this user may connect) instead of --host and --port; the token is still required",
      },
      {
        key: "sessionIdle",
        long: "session-idle",
        value: "seconds",
        description:
          "with --http, close a session after this long with no request and no open stream (default 300, or PEP_MCP_SESSION_IDLE)",
      },
      {
        key: "maxSessions",
        long: "max-sessions",
        value: "n",
        description:
          "with --http, most sessions at once: past it the one idle longest is closed (never one still starting), or a new one gets 503 saying why when none can give way (default 64, or PEP_MCP_MAX_SESSIONS)",
      },
      {
        key: "host",
        long: "host",
        value: "address",
        description:
          "address for --http (default 127.0.0.1); beyond loopback it is plain HTTP, so put a TLS proxy in front",
      },
      {
        key: "tools",
        long: "tools",
        value: "groups",
        description:
          "serve only these groups of tools, comma-separated or the flag repeated: research, studies, vendors, prices, library (default all but library, which is served offline; all names every group; or PEP_MCP_TOOLS); a word that names no group is left out and said in the instructions",
        repeatable: true,
      },
    ],
    defaultFormat: "json",
    stdioProtocol: true,
    reportsConfig: true,
  },
];
