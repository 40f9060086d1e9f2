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
import type { Column } from "./columns.js";
import { resolveColumns } from "./columns.js";
import type { WriterContext } from "./writer-context.js";
import { fitWidths, formatRow, naturalWidths } from "./layout.js";
import type { Style } from "./style.js";

export const BLOCK_ROWS = 100;

export interface TableSetup {
  columns: Column[];
  widths: number[];
}

/** Fixes columns and widths from the first block of items. */
export function setupTable(columns: Column[], block: readonly unknown[], width: number): TableSetup {
  const rows = block.map((item) => columns.map((c) => c.cell(item)));
  const widths = fitWidths(
    naturalWidths(
      columns.map((c) => c.header),
      rows,
    ),
    width,
    {
      fixed: columns.map((c) => c.fixed === true),
      wide: columns.map((c) => c.wide === true),
    },
  );
  return { columns: columns.slice(0, widths.length), widths };
}

export function tableLines(setup: TableSetup, items: readonly unknown[], style: Style, header: boolean): string[] {
  const lines: string[] = [];
  const fixed = setup.columns.map((c) => c.fixed === true);
  if (header)
    lines.push(
      formatRow(
        setup.columns.map((c): Cell => ({ text: c.header })),
        setup.widths,
        style,
        true,
      ),
    );
  for (const item of items)
    lines.push(
      formatRow(
        setup.columns.map((c) => c.cell(item)),
        setup.widths,
        style,
        false,
        fixed,
      ),
    );
  return lines;
}

/** A whole (small) table at once: search sections, an item whose data is a list. */
export function renderTable(items: readonly unknown[], columns: Column[], width: number, style: Style): string[] {
  if (items.length === 0 || columns.length === 0) return [];
  const setup = setupTable(columns, items, width);
  const lines = tableLines(setup, items, style, true);
  const hidden = columns.slice(setup.columns.length).map((c) => c.header.toLowerCase());
  if (hidden.length > 0) lines.push(style.dim(`(${hidden.join(", ")} hidden for lack of width; use -o json)`));
  return lines;
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
): Promise<number> {
  let setup: TableSetup | undefined;
  let block: unknown[] = [];
  let count = 0;
  const flush = async () => {
    if (block.length === 0) return;
    let header = false;
    if (!setup) {
      const columns = resolveColumns(resource, ctx.fields, block[0]);
      setup = setupTable(columns, block, ctx.options.columns);
      header = true;
      const hidden = columns.length - setup.columns.length;
      if (hidden > 0) {
        await ctx.notice(
          `note: ${hidden} column${hidden === 1 ? "" : "s"} hidden for lack of width (${columns
            .slice(setup.columns.length)
            .map((c) => c.key)
            .join(", ")}); use --fields or -o csv`,
        );
      }
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
  return count;
}
