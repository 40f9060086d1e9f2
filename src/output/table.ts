/**
 * List tables, kubectl/gh style: a header row and aligned columns separated by two
 * spaces, no borders. Plain layout rather than cli-table3 because a table is streamed in
 * blocks: borders would have to close and reopen between blocks, while borderless rows
 * simply continue. Column widths are fitted to the terminal from the first block (100
 * rows, the size of a full API page) and kept for the rest of the run, so `--all` on a
 * terminal prints page after page without holding the whole list.
 */
import type { Resource } from "../core/command.js";
import type { Cell } from "./cells.js";
import type { Column } from "./table-columns.js";
import { loose, minWidthOf, resolveColumns } from "./table-columns.js";
import { isIdKey } from "./cells.js";
import type { WriterContext } from "./writer-context.js";
import { type ColumnNeeds, EXTRA_PRIORITY, formatRow, GAP, naturalWidths, planColumns } from "./layout.js";
import { rowLines, STACK_INDENT } from "./table-wrap.js";
import { getPath } from "./value-paths.js";
import { displayWidth } from "./width.js";
import type { Style } from "./style.js";

export const BLOCK_ROWS = 100;

/**
 * The narrowest a column named with `--fields` is cut to ("ab…"): it is the user's
 * choice, so it is kept over any default column; but never below its header, so two
 * columns such as RATING.AVERAGE and RATING.COUNT cannot both read "RATIN…".
 */
const CHOSEN_MIN = 4;

export interface TableSetup {
  columns: Column[];
  widths: number[];
  /** Columns left out for lack of width, in their order. */
  hidden: Column[];
  /** Of those, the ones that only repeated the id or a filter's value: why, by column. */
  repeats?: ReadonlyMap<Column, "id" | "filter">;
  /** Kept columns holding a list whose cell was cut in some row (said in the note). */
  cut?: Set<Column>;
  /** A title too narrow beside the others: on lines of its own under each row. */
  stacked?: Column;
  /** The whole width, which a stacked title takes. */
  total?: number;
}

/**
 * Columns whose every cell in the rows at hand says nothing new, so they are the first
 * to go: one that repeats the row's id (NAME "BPC-157" beside ID "bpc-157") or the one
 * (a filter's column is left out before this, in setupTable). Never one named with
 * `--fields`.
 */
function saysNothingNew(columns: readonly Column[], rows: readonly (readonly Cell[])[]) {
  const idAt = columns.findIndex((c) => c.fixed === true && isIdKey(c.key));
  const text = (r: readonly Cell[], j: number) => r[j]?.text ?? "";
  return columns.map((c, j) => {
    if (c.chosen || rows.length === 0) return false;
    const echoesId =
      idAt >= 0 &&
      j !== idAt &&
      rows.every((r) => loose(text(r, idAt)) !== "" && loose(text(r, j)) === loose(text(r, idAt)));
    return echoesId ? "id" : undefined;
  });
}

/** An id column links to the item only when no other kept column (its name) does already. */
function linkedElsewhere(column: Column, kept: readonly Column[]): boolean {
  if (!isIdKey(column.key)) return false;
  const to = JSON.stringify(column.links);
  return kept.some((c) => c !== column && JSON.stringify(c.links) === to);
}

/**
 * Fixes columns and widths from the first block of items (docs/cli.md#tables): columns
 * named with `--fields` are kept in their order and cut if need be; default ones are
 * kept by priority, each whole or at least its minimum wide, the lowest hidden first.
 * A `streamed` table keeps room for later pages where it can.
 */
export function setupTable(
  all: Column[],
  block: readonly unknown[],
  width: number,
  filters: readonly string[] = [],
  streamed = false,
): TableSetup {
  // A filter's column goes whatever the data: every row would say what the user typed.
  const columns = all.filter((c) => c.chosen || !(c.filters ?? []).some((f) => filters.includes(f)));
  const rows = block.map((item) => columns.map((c) => c.cell(item)));
  const natural = naturalWidths(
    columns.map((c) => c.header),
    rows,
  );
  const idle = saysNothingNew(columns, rows);
  const needs = columns.map(
    (c, i): ColumnNeeds => ({
      natural: natural[i]!,
      min: minWidthOf(c.chosen ? { header: c.header, min: CHOSEN_MIN } : c),
      // Chosen columns before any default one, leftmost first; idle ones after all.
      priority: c.chosen ? 1000 - i : (c.priority ?? 50 - i / 100) - (idle[i] ? 1000 : 0),
      fixed: c.fixed === true,
      wide: c.wide === true,
      reserve: streamed && c.min !== undefined,
    }),
  );
  let plan = planColumns(needs, width);
  // A title that cannot have its minimum beside the short facts goes under them, whole
  // width; the extras (a journal) then show only whole, so the row's first line is facts.
  const title = columns.findIndex((c) => c.wide === true && c.wrap === true && !c.chosen);
  const at = plan.keep.indexOf(title);
  const stacks =
    title >= 0 && columns.length > 1 && (at < 0 || plan.widths[at]! < Math.min(natural[title]!, needs[title]!.min));
  if (stacks) {
    const others = columns.map((_, i) => i).filter((i) => i !== title);
    const rest = others.map((i) => needs[i]!).map((n) => (n.priority < EXTRA_PRIORITY ? { ...n, fixed: true } : n));
    const sub = planColumns(rest, width);
    plan = { keep: sub.keep.map((j) => others[j]!), widths: sub.widths };
  }
  const kept = plan.keep.map((i) => columns[i]!);
  const hidden = columns.filter((_, i) => !plan.keep.includes(i) && !(stacks && i === title));
  const repeats = new Map<Column, "id" | "filter">();
  columns.forEach((c, i) => {
    const why = idle[i];
    if (why && hidden.includes(c)) repeats.set(c, why);
  });
  return {
    columns: kept.map((c) => (c.unlinked && linkedElsewhere(c, kept) ? { ...c, cell: c.unlinked } : c)),
    widths: plan.widths,
    hidden,
    repeats,
    ...(stacks ? { stacked: columns[title]!, total: width } : {}),
  };
}

/**
 * The one line telling which columns were hidden and how to see them: `--fields` with
 * the row's id and the hidden fields (top-level names, which every list's `--fields`
 * takes), or, when the user's own `--fields` did not fit, fewer of them.
 */
export function hiddenNote(setup: TableSetup, how: "fields" | "json" = "fields"): string | undefined {
  const { hidden } = setup;
  if (hidden.length === 0) return undefined;
  const name = (c: Column) => c.key || c.header.toLowerCase();
  const list = (cs: readonly Column[]) => {
    const names = cs.map(name);
    return names.length > 5 ? `${names.slice(0, 4).join(", ")} and ${names.length - 4} more` : names.join(", ");
  };
  const why = (c: Column) => setup.repeats?.get(c);
  const narrow = hidden.filter((c) => why(c) === undefined);
  // "fda_status hidden for lack of width, name as it repeats the id": each reason once.
  const parts: string[] = [];
  const say = (cs: readonly Column[], reason: string) => {
    if (cs.length > 0) parts.push(`${list(cs)}${parts.length === 0 ? " hidden" : ""} ${reason}`);
  };
  say(narrow, "for lack of width");
  for (const w of ["id", "filter"] as const) {
    const cs = hidden.filter((c) => why(c) === w);
    say(cs, `as ${cs.length === 1 ? "it repeats" : "they repeat"} ${w === "id" ? "the id" : "your filter"}`);
  }
  const what = `note: ${parts.join(", ")}`;
  if (how === "json") return `${what}; -o json shows every field`;
  if (hidden.some((c) => c.chosen)) return `${what}; name fewer --fields, or use -o csv`;
  const id = [...setup.columns, ...hidden].find((c) => c.key === "id" || c.key === "slug");
  const fields = [...new Set([...(id ? [id.key] : []), ...hidden.map((c) => c.key)].map((k) => k.split(".")[0]!))];
  return `${what}; --fields ${fields.join(",")} shows ${hidden.length === 1 ? "it" : "them"}`;
}

export function tableLines(setup: TableSetup, items: readonly unknown[], style: Style, header: boolean): string[] {
  const lines: string[] = [];
  const fixed = setup.columns.map((c) => c.fixed === true);
  const shape = {
    widths: setup.widths,
    fixed,
    // Not the first column: a row's first line is the one that starts at the margin.
    wraps: setup.columns.map((c, i) => c.wrap === true && i > 0),
    total: setup.total ?? setup.widths.reduce((s, w) => s + w + GAP, -GAP),
  };
  const { stacked } = setup;
  if (header) {
    const headers = setup.columns.map((c): Cell => ({ text: c.header }));
    lines.push(formatRow(headers, setup.widths, style, true));
    if (stacked) lines.push(" ".repeat(STACK_INDENT) + style.bold(stacked.header));
  }
  for (const item of items) {
    const cells = setup.columns.map((c) => c.cell(item));
    cells.forEach((cell, i) => {
      const c = setup.columns[i]!;
      if (!fixed[i] && displayWidth(cell.text) > setup.widths[i]! && Array.isArray(getPath(item, c.key)))
        setup.cut = new Set([...(setup.cut ?? []), c]);
    });
    lines.push(...rowLines(cells, shape, style, stacked?.cell(item)));
  }
  return lines;
}

/** "peptides cut to fit; -o json lists them whole": a list cell cut short in some row. */
export function cutNote(setup: TableSetup): string | undefined {
  const cut = [...(setup.cut ?? [])];
  if (cut.length === 0) return undefined;
  const names = cut.map((c) => c.key.split(".")[0]!);
  return `${names.join(", ")} cut to fit (the whole lists: -o json)`;
}

/**
 * A note after a table: held (on a terminal, to be folded with the others into one line
 * once the output ends), else told at once.
 */
export async function tableNote(ctx: WriterContext, note: string | undefined): Promise<void> {
  if (note === undefined) return;
  if (ctx.options.heldNotes) ctx.options.heldNotes.push(note.replace(/^note: /, ""));
  else await ctx.notice(note.startsWith("note: ") ? note : `note: ${note}`);
}

/**
 * A whole (small) table at once: search sections, an item whose data is a list. Columns
 * it hides are handed to `onHidden`, for the caller to tell once.
 */
export function renderTable(
  items: readonly unknown[],
  columns: Column[],
  width: number,
  style: Style,
  onHidden?: (setup: TableSetup) => void,
): string[] {
  if (items.length === 0 || columns.length === 0) return [];
  const setup = setupTable(columns, items, width);
  if (setup.hidden.length > 0) onHidden?.(setup);
  return tableLines(setup, items, style, true);
}

/**
 * Streams a list as a table; returns the number of rows. Columns hidden for lack of
 * width are told once on stderr.
 */
export async function writeListTable(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  resource: Resource,
  ctx: WriterContext,
  style: Style,
  filters: readonly string[] = [],
): Promise<number> {
  let setup: TableSetup | undefined;
  let block: unknown[] = [];
  let count = 0;
  const flush = async () => {
    if (block.length === 0) return;
    let header = false;
    if (!setup) {
      const columns = resolveColumns(resource, ctx.fields, block[0]);
      setup = setupTable(columns, block, ctx.options.columns, filters, true);
      header = true;
      await tableNote(ctx, hiddenNote(setup));
    }
    const lines = tableLines(setup, block, style, header);
    block = [];
    await ctx.emit(`${lines.join("\n")}\n`);
  };
  try {
    for await (const item of ctx.each(items)) {
      block.push(item);
      count++;
      if (block.length >= BLOCK_ROWS) await flush();
    }
  } catch (err) {
    // A list cut short (an error, Ctrl-C) keeps the rows it already fetched: the resume
    // command starts after them. An output that is gone (the pager quit) takes nothing.
    await flush().catch(() => undefined);
    throw err;
  }
  await flush();
  if (setup) await tableNote(ctx, cutNote(setup));
  return count;
}
