/**
 * `pep --help`, laid out as gh lays out its own: what pep is, the usage line, the commands
 * in groups with one line each, then the global flags in one short line each (`pep help
 * globals` has them at length), then where to learn more. The commands come first, so
 * that they are on the first screen; a command's own help (`pep peptides list --help`)
 * keeps commander's layout: its options first, then examples, then a pointer to the globals.
 */
import type { Command, Help } from "commander";
import { GLOBAL_OPTIONS } from "../api/globals.js";
import type { OptionDef } from "../api/options.js";
import { RESEARCH_NOTICE } from "../core/research-notice.js";

/** Top-level commands by section, in the order shown; a command not named here goes under "Other commands". */
const SECTIONS: readonly { title: string; names: readonly string[] }[] = [
  {
    title: "Research commands (no key needed):",
    names: ["peptides", "studies", "search", "categories", "research-areas", "browse"],
  },
  { title: "Vendor commands (a key with the matching scope):", names: ["vendors", "prices", "products"] },
  {
    title: "Set-up and tools:",
    names: [
      "auth",
      "config",
      "sync",
      "sql",
      "changes",
      "sandbox",
      "index",
      "health",
      "api",
      "cache",
      "completion",
      "mcp",
      "help",
    ],
  },
];

/** One line a global flag in `pep --help`; the full text is `pep help globals`'s. */
const BRIEF: Readonly<Record<string, string>> = {
  db: "the local library: a SQLite file or a postgres:// URL",
  fields: "fields to request and show (list commands)",
  file: "write to this file; its name can pick the format",
  restart: "with --file: start over, dropping <file>.partial",
  resumeMaxAge: "with --file: oldest partial to continue (default: 24h)",
  jq: "filter the JSON output with jq (built in)",
  jqRaw: "with --jq: print strings without quotes",
  baseUrl: "API base URL, ending in /v1 (env PEP_BASE_URL)",
  apiKeyFile: "read the API key from a file, or - for stdin",
  authHeader: "how the key is sent: bearer (default), x-api-key",
  profile: "use this named set of settings (env PEP_PROFILE)",
  timeout: "per-request timeout (default: 30)",
  retries: "retries of 429, 5xx and network errors (default: 3)",
  retry: "do not retry",
  cache: "skip the ETag cache",
  proxy: "send requests through this http(s) proxy",
  compress: "do not ask for compressed answers",
  formulaGuard: "CSV/TSV cells exactly as sent (no ' before = + - @)",
  color: "no colour (also NO_COLOR)",
  pager: "do not page output (pager: PEP_PAGER, PAGER, less)",
  quiet: "no notices or progress on stderr",
  verbose: "log each request and response to stderr",
  sandbox: "built-in synthetic data: no key or network needed",
};

function briefOf(o: OptionDef): string {
  if (o.key === "output") return `output format: ${(o.choices ?? []).join(", ")}`;
  return BRIEF[o.key] ?? o.description;
}

/** Text wrapped at spaces to `width`, later lines indented by `indent` (help is ASCII). */
export function wrapWords(text: string, width: number, indent = ""): string {
  const lines: string[] = [];
  let line = "";
  for (const w of text.split(/\s+/).filter((x) => x !== "")) {
    if (line !== "" && line.length + 1 + w.length > width) {
      lines.push(line);
      line = `${indent}${w}`;
    } else line = line === "" ? w : `${line} ${w}`;
  }
  lines.push(line);
  return lines.join("\n");
}

/** `[term, description]` pairs laid out by the help's own formatItem, under a title. */
function section(title: string, items: readonly (readonly [string, string])[], helper: Help): string[] {
  if (items.length === 0) return [];
  const termWidth = Math.max(...items.map(([t]) => t.length));
  return ["", title, ...items.map(([t, d]) => helper.formatItem(t, termWidth, d, helper))];
}

function commandSections(program: Command, helper: Help): string[] {
  const commands = helper.visibleCommands(program);
  const placed = new Set<string>();
  const lines: string[] = [];
  const capital = (d: string) => d.charAt(0).toUpperCase() + d.slice(1);
  const item = (c: Command) => [c.name(), capital(helper.subcommandDescription(c))] as const;
  for (const s of SECTIONS) {
    const chosen = s.names.flatMap((n) => commands.filter((c) => c.name() === n));
    for (const c of chosen) placed.add(c.name());
    lines.push(...section(s.title, chosen.map(item), helper));
  }
  lines.push(...section("Other commands:", commands.filter((c) => !placed.has(c.name())).map(item), helper));
  return lines;
}

/** The whole of `pep --help` at the helper's width. */
export function rootHelp(program: Command, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  const flags = [
    ...(GLOBAL_OPTIONS as readonly OptionDef[])
      .filter((o) => !o.hidden)
      .map(
        (o) => [`${o.short ? `-${o.short}, ` : ""}--${o.long}${o.value ? ` <${o.value}>` : ""}`, briefOf(o)] as const,
      ),
    ["-h, --help", "show help (also: pep help <command>)"] as const,
    ["-V, --version", "print the version"] as const,
  ];
  const lines = [
    wrapWords(program.description(), width),
    "",
    "Usage: pep <command> [subcommand] [flags]",
    ...commandSections(program, helper),
    ...section("Flags (before or after the command):", flags, helper),
    ...section(
      "Learn more:",
      [
        ["pep <command> --help", "a command's options and examples"],
        ["pep help globals", "every flag at length"],
        ["man pep", "the manual (exit codes, environment, files)"],
        ["pep --sandbox peptides list", "try it without a key or network"],
      ],
      helper,
    ),
    "",
    wrapWords(RESEARCH_NOTICE, width),
    wrapWords(
      "Exit codes: 0 ok, 1 bug, 2 usage or 400, 3 auth, 4 not found, 5 rate limited, 6 service or network, 130 interrupted.",
      width,
    ),
  ];
  return `${lines.join("\n")}\n`;
}
