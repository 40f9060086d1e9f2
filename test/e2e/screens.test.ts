/**
 * What a reader sees at a terminal: every card and every list rendered by the real
 * command (in-process) against the sandbox at 60, 80, 120 and 200 columns. The screens
 * are the review copy of each layout, one file per layout and width in __screens__/
 * (`npx vitest run -u test/e2e/screens.test.ts` rewrites them); the checks beside them
 * hold at every width: no line wider than the terminal (a URL longer than the room is the
 * one thing left whole), no fact said twice in a card, and ids whole at 60 columns.
 */
import { describe, expect, it } from "vitest";
import type { Resource } from "../../src/core/command.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";
import { expectMinimums, tablesOf } from "../helpers/tables.js";
import { visible } from "../helpers/terminal.js";

const cli = useSandboxCli();
const KEY = { PEP_API_KEY: "sbx_full_key" };

/**
 * The command's stdout at a terminal of `columns`, the sandbox's address made stable,
 * then the notes it printed on stderr (which columns it hid) under a `--- stderr` line.
 */
async function screen(argv: readonly string[], columns: number): Promise<string> {
  const r = await cli.pep([...argv, "--no-pager"], { env: { ...KEY, NO_COLOR: "1" }, tty: true, columns });
  expect(r.code, r.err).toBe(0);
  const text = visible(r.out).split(cli.baseUrl).join("http://sandbox.test/v1");
  for (const line of text.split("\n")) {
    // A line may pass the width only to keep a URL whole.
    if (line.length > columns) expect(line, `wider than ${columns}`).toMatch(/https?:\/\/\S{20,}/);
  }
  // At most one note after the table, folded to the width (a flag never apart from its
  // value), then the command to continue with, folded with ` \` continuations: its lines
  // joined as a shell joins them are the one command.
  const err = r.err.split("\n");
  const at = err.findIndex((l) => l.startsWith("note: ") || l.startsWith("to continue"));
  const notes = at < 0 ? [] : err.slice(at).filter((l) => l !== "");
  expect(notes.filter((l) => l.startsWith("note: ")).length, r.err).toBeLessThanOrEqual(1);
  const from = notes.findIndex((l) => l.startsWith("to continue"));
  expect(notes.filter((l) => l.startsWith("to continue")).length, r.err).toBeLessThanOrEqual(1);
  if (from >= 0) {
    const command = notes
      .slice(from)
      .join("\n")
      .replace(/ \\\n {2}/g, " ");
    expect(command, "the folded lines are one command").toMatch(/^to continue[^:\n]*: pep [^\n]*--cursor=\S+$/);
  }
  for (const l of notes) {
    // Only a word wider than the line (a long cursor) passes the width, on a line of its own.
    if (!/^ {2}--cursor=\S+$/.test(l)) expect(l.length, l).toBeLessThanOrEqual(columns);
    expect(l, "a flag apart from its value").not.toMatch(/ --fields$/);
  }
  const told = notes
    .join("\n")
    .replace(/--cursor=\S+/, "--cursor=<c>")
    .split(cli.baseUrl)
    .join("http://sandbox.test/v1");
  return notes.length > 0 ? `${text}--- stderr\n${told}\n` : text;
}

const WIDTHS = [60, 80, 120, 200] as const;

/** Each layout by its name (the screen files' stem) and the command that shows it. */
const SCREENS: Record<"cards" | "lists", ReadonlyArray<readonly [string, readonly string[]]>> = {
  cards: [
    ["peptides get", ["peptides", "get", "brevritarin-81"]],
    ["peptides research", ["peptides", "research", "brevritarin-81"]],
    ["peptides regulatory", ["peptides", "regulatory", "brevritarin-81"]],
    ["studies get", ["studies", "get", "pmid-90001067"]],
    ["vendors get", ["vendors", "get", "vnd_9a826af2"]],
    ["vendors shipping", ["vendors", "shipping", "vnd_9a826af2"]],
    ["vendors compare", ["vendors", "compare", "vnd_9a826af2", "vnd_ef639d63"]],
    ["vendors compare 3", ["vendors", "compare", "vnd_9a826af2", "vnd_ef639d63", "vnd_d80adb24"]],
    ["vendors compare 4", ["vendors", "compare", "vnd_9a826af2", "vnd_ef639d63", "vnd_d80adb24", "vnd_591ef5d7"]],
    ["index", ["index"]],
    ["health", ["health"]],
  ],
  lists: [
    ["peptides list", ["peptides", "list", "--limit", "4"]],
    ["peptides list evidence", ["peptides", "list", "--evidence-level", "insufficient", "--limit", "4"]],
    ["peptides studies", ["peptides", "studies", "brevritarin-81", "--limit", "4"]],
    // Nine rows, with the sandbox's DOI ids beside its PMIDs.
    ["peptides studies dois", ["peptides", "studies", "brevritarin-81"]],
    ["studies list", ["studies", "list", "--limit", "4"]],
    ["studies list by title", ["studies", "list", "--sort", "title", "--limit", "4"]],
    ["categories", ["categories", "--limit", "3"]],
    ["research-areas", ["research-areas", "--limit", "3"]],
    ["search", ["search", "insulin"]],
    ["vendors list", ["vendors", "list", "--limit", "4"]],
    ["vendors list country", ["vendors", "list", "--country", "US", "--limit", "4"]],
    ["prices", ["prices", "--limit", "4"]],
    ["prices filtered", ["prices", "--peptide", "brevritarin-81", "--currency", "EUR", "--limit", "4"]],
    ["products", ["products", "--limit", "4"]],
    ["products peptide", ["products", "--peptide", "brevritarin-81", "--limit", "4"]],
  ],
};

for (const [group, layouts] of Object.entries(SCREENS)) {
  describe(group, () => {
    for (const [name, argv] of layouts) {
      for (const columns of WIDTHS) {
        it(`${name} at ${columns} columns`, async () => {
          await expect(await screen(argv, columns)).toMatchFileSnapshot(
            `__screens__/${name.replace(/ /g, "-")}-${columns}.txt`,
          );
        });
      }
    }
  });
}

/** The resource of each list's table (a search has two: its peptides, then its content). */
const LIST_RESOURCES: Record<string, readonly (Resource | "search-content")[]> = {
  peptides: ["peptide"],
  "peptides studies": ["cited-study"],
  studies: ["study"],
  categories: ["category"],
  "research-areas": ["research-area"],
  search: ["peptide", "search-content"],
  vendors: ["vendor"],
  prices: ["offer"],
  products: ["product"],
};

describe("no kept column cut below its minimum", () => {
  for (const [name, argv] of SCREENS.lists) {
    it(name, async () => {
      const key = name.startsWith("peptides studies") ? "peptides studies" : name.split(" ")[0]!;
      const resources = LIST_RESOURCES[key]!;
      for (const columns of WIDTHS) {
        const text = await screen(argv, columns);
        const tables = tablesOf(text);
        // Where a content title cannot sit beside its whole address, search lists the
        // content as two lines an item (title, then address): no table to check there.
        const stacked = key === "search" && /^• .*\n {2}https?:\/\//m.test(text);
        expect(tables.length, `${name} at ${columns}`).toBe(resources.length - (stacked ? 1 : 0));
        tables.forEach((table, t) => expectMinimums(table, resources[t]!, `${name} at ${columns}`));
      }
    });
  }
});

/** A table's titles as a reader reads them: the TITLE cells, or the stacked lines, of each row joined. */
function titlesOf(text: string): string[] {
  const [table] = tablesOf(text);
  if (!table) return [];
  if (table.stacked === "TITLE") return table.more.map((lines) => lines.map((l) => l.trim()).join(" "));
  const j = table.headers.indexOf("TITLE");
  if (j < 0) return [];
  const cell = (l: string) => l.slice(table.starts[j], table.starts[j + 1]).trim();
  return table.rows.map((row, i) => [row, ...table.more[i]!].map(cell).join(" "));
}

describe("study titles are read whole", () => {
  it.each(WIDTHS)("at %i columns, at least 40 wide or on lines of their own", async (columns) => {
    const argv = ["peptides", "studies", "brevritarin-81"];
    const json = await cli.pep([...argv, "-o", "json"], { env: KEY });
    const titles = (JSON.parse(json.out) as Array<{ title: string }>).map((s) => s.title);
    const text = await screen(argv, columns);
    expect(titlesOf(text)).toEqual(titles);
    const [table] = tablesOf(text);
    if (table!.stacked === undefined) {
      const j = table!.headers.indexOf("TITLE");
      const width = (table!.starts[j + 1] ?? columns + 2) - table!.starts[j]! - 2;
      expect(width, `title column at ${columns}`).toBeGreaterThanOrEqual(
        Math.min(40, Math.max(...titles.map((t) => t.length))),
      );
    }
    // A journal is shown only beside whole titles.
    if (table!.headers.includes("JOURNAL") && table!.stacked === undefined) expect(table!.more.flat().length).toBe(0);
  });
});

const CARDS: readonly (readonly string[])[] = [
  ["peptides", "get", "brevritarin-81"],
  ["peptides", "research", "brevritarin-81"],
  ["peptides", "regulatory", "brevritarin-81"],
  ["studies", "get", "pmid-90001067"],
  ["vendors", "get", "vnd_9a826af2"],
  ["vendors", "shipping", "vnd_9a826af2"],
];
const PLACEHOLDERS = new Set(["not documented", "none", "unknown", "yes", "no"]);
const URL = /https?:\/\/\S+/g;
const STUDY_ID = /\b(?:pmid-\d+|doi-10\.[\w.-]+|nct-\w+)\b/g;

/** The facts a card states: each labelled line's value, and each study id outside links. */
function factsOf(text: string): { values: string[]; studies: string[] } {
  const values: string[] = [];
  const studies: string[] = [];
  for (const line of text.split("\n")) {
    studies.push(...(line.replace(URL, "").match(STUDY_ID) ?? []));
    const m = /^ {0,4}(?![•(])(\S(?:.*?\S)?) {2,}(\S.*)$/.exec(line);
    if (m?.[2] !== undefined && !PLACEHOLDERS.has(m[2]) && !/^[\d.]+$/.test(m[2])) values.push(m[2]);
  }
  return { values, studies };
}

const repeated = (xs: string[]) => xs.filter((x, i) => xs.indexOf(x) !== i);

describe("each fact once", () => {
  it.each(CARDS.map((argv) => [argv.join(" "), argv] as const))("pep %s", async (_, argv) => {
    for (const columns of [60, 200]) {
      const { values, studies } = factsOf(await screen(argv, columns));
      expect(values.length).toBeGreaterThan(2);
      expect(repeated(values), `${columns} columns`).toEqual([]);
      expect(repeated(studies), `${columns} columns`).toEqual([]);
    }
  });

  it("a card's id is whole at 60 columns", async () => {
    for (const argv of CARDS.slice(0, 6)) {
      const text = await screen(argv, 60);
      expect(text.split("\n").some((l) => /^ *(?:Peptide )?ID {2,}/.test(l) && l.endsWith(` ${argv[2]}`))).toBe(true);
    }
  });
});
