/**
 * `pep --help` (and `pep` alone): one screen. What pep is, the usage line, the commands in
 * groups with one short line each (related set-up commands share a line), one line on
 * `--sandbox`, and where to learn more. It fits a 24-row terminal at 60 columns and more,
 * so it is printed without a pager; every global flag at length is `pep help globals`, and
 * a command's own help (`pep peptides list --help`) keeps commander's layout: its options
 * first, then examples, then a pointer to the globals.
 */
import type { Command, Help } from "commander";

/** Top-level commands by section, in the order shown, each with its one-line brief. */
const SECTIONS: readonly { title: string; items: readonly (readonly [names: string, brief: string])[] }[] = [
  {
    title: "Research (no key needed):",
    items: [
      ["peptides", "profiles, their evidence and status"],
      ["studies", "studies; export BibTeX, RIS, CSL-JSON"],
      ["search", "search profiles and educational texts"],
      ["categories", "categories with their profiles"],
      ["research-areas", "research areas, most studied first"],
      ["browse", "open a record's page in the browser"],
    ],
  },
  {
    title: "Vendors (a key with the matching scope):",
    items: [
      ["vendors", "the vendor directory; compare vendors"],
      ["prices", "current offers with their prices"],
      ["products", "products, price ranges per currency"],
    ],
  },
  {
    title: "Set-up and tools:",
    items: [
      ["auth, config", "the API key; settings and profiles"],
      ["sync, sql, changes", "a local library: fill, query, changes"],
      ["index, health, api", "the API's index, its health; any GET"],
      ["sandbox, mcp", "a synthetic API; a server for MCP"],
      ["cache, completion", "the ETag cache; shell completion"],
    ],
  },
];

/** Every top-level command the help names (a test checks it against the registry). */
export const ROOT_HELP_COMMANDS: readonly string[] = SECTIONS.flatMap((s) =>
  s.items.flatMap(([names]) => names.split(", ")),
);

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

/** The research notice in a line (the whole of it is under every research card and in `man pep`). */
const SHORT_NOTICE = "Research and education only: not medical advice.";

/** The first line of `pep --help`: main.ts prints a text that starts with it without a pager. */
export const ROOT_HELP_FIRST_LINE = "pep reads a peptide research API from the command line.";

/** The commands a program has that no section names, under "Other commands:" (none today). */
function others(program: Command, helper: Help): (readonly [string, string])[] {
  const named = new Set(ROOT_HELP_COMMANDS);
  return helper
    .visibleCommands(program)
    .filter((c) => c.name() !== "help" && !named.has(c.name()))
    .map((c) => [c.name(), helper.subcommandDescription(c)] as const);
}

/** The whole of `pep --help` at the helper's width. */
export function rootHelp(program: Command, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  const extra = others(program, helper);
  const sections = extra.length === 0 ? SECTIONS : [...SECTIONS, { title: "Other commands:", items: extra }];
  const termWidth = Math.max(...sections.flatMap((s) => s.items.map(([t]) => t.length)));
  const lines = [
    wrapWords(ROOT_HELP_FIRST_LINE, width),
    "Usage: pep <command> [subcommand] [flags]",
    ...sections.flatMap((s) => [s.title, ...s.items.map(([t, d]) => helper.formatItem(t, termWidth, d, helper))]),
    "",
    wrapWords("Try it with no key or network: pep --sandbox peptides list", width),
    wrapWords("More: pep <command> --help, pep help globals, man pep", width),
    wrapWords(SHORT_NOTICE, width),
  ];
  return `${lines.join("\n")}\n`;
}
