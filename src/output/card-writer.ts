/**
 * A single object (a profile, a study, a vendor) as a readable card: a title (linked to
 * the item's page), an overview of `Label  value` lines, then titled sections. It works
 * on any shape: scalars line up as labels and values, nested objects become sections or
 * indented blocks, lists of objects become bulleted sub-lists. A layout per resource
 * only chooses the order and the section titles of keys it knows; whatever it does not
 * name is still shown after them, so a field added by the API is never lost.
 */
import { cardCell, smallTable } from "./card-cells.js";
import type { CardLayout, CardOptions, SectionSpec } from "./card-types.js";
import { sourceText, valueText, type Cell } from "./cells.js";
import { cleanLine, MAX_URL_LENGTH } from "../core/sanitize.js";
import type { Style } from "./style.js";
import {
  asFact,
  getPath,
  humanize,
  isPlainObject,
  isScalarArray,
  NOT_DOCUMENTED,
  titleKeyOf,
  type Plain,
} from "./value-paths.js";
import { displayWidth, padEnd, truncate, wrap, wrapUnits } from "./width.js";
import {
  STUDY_COMPACT_KEYS,
  studyIdOf,
  isStudy,
  GENERIC_LIST_KEYS,
  leafOf,
  sequenceUnits,
  isUrl,
  isInline,
} from "./card-value-kinds.js";

export type { CardLayout, CardOptions, SectionSpec } from "./card-types.js";

const MAX_LABEL = 24;
const MAX_DEPTH = 6;
const INDENT = 2;

interface Entry {
  label: string;
  value: unknown;
  path: string;
}

class CardWriter {
  private readonly used = new Set<string>();
  /** Studies already printed in this card: a later list names them instead of repeating them. */
  private readonly shownStudies = new Set<string>();
  constructor(private readonly o: CardOptions) {}

  private get style(): Style {
    return this.o.style;
  }

  private consumed(path: string): boolean {
    return this.used.has(path);
  }

  /** Child entries of an object, minus paths already shown elsewhere. */
  private children(obj: Plain, prefix: string): Entry[] {
    const sourced = this.sourcedChildren(obj, prefix);
    if (sourced) return sourced;
    const out: Entry[] = [];
    for (const [k, v] of Object.entries(obj)) {
      const path = prefix === "" ? k : `${prefix}.${k}`;
      if (this.consumed(path)) continue;
      if (isPlainObject(v) && Object.keys(v).length > 0 && this.children(v, path).length === 0) continue;
      out.push({ label: humanize(k), value: k === "source" && isPlainObject(v) ? sourceText(v) : v, path });
    }
    return out;
  }

  /**
   * A sourced fact whose value is an object or a list (`{ value: { coverage, countries },
   * source: { type, url, checked_at } }`): the value's own entries, then its source on one
   * line, rather than "Value" and "Source" blocks with the fields spread under each.
   */
  private sourcedChildren(obj: Plain, prefix: string): Entry[] | undefined {
    const fact = asFact(obj, { anyValue: true });
    if (!fact || isInline(fact.value) || !isPlainObject(obj.source)) return undefined;
    const valuePath = prefix === "" ? "value" : `${prefix}.value`;
    // A list stands under the fact's own heading: no "Value" label between them.
    const own = isPlainObject(fact.value)
      ? this.children(fact.value, valuePath)
      : [{ label: "", value: fact.value, path: valuePath }];
    return [
      ...own,
      { label: "Source", value: sourceText(obj.source), path: prefix === "" ? "source" : `${prefix}.source` },
    ];
  }

  private inlineCell(v: unknown, path = ""): Cell {
    return cardCell(v, path, this.o.nullText);
  }

  private paint(text: string, cell: Cell): string {
    return cell.dim ? this.style.dim(text) : text;
  }

  /**
   * A URL on its own: a link with cut text when links are on, else the whole URL (never
   * broken, so it can be copied) unless it is longer than any usable URL (cut to the room).
   */
  private urlText(url: string, room: number): string {
    const clean = cleanLine(url);
    // Whole, linked or not: a reader copies the text as often as they click it.
    const text = clean.length <= MAX_URL_LENGTH ? clean : truncate(clean, Math.max(8, room));
    return this.style.canLink(url) ? this.style.link(text, url) : text;
  }

  /** `Label  value`, the value wrapped under itself. */
  private labelled(label: string, value: unknown, indent: number, labelWidth: number, path = ""): string[] {
    const pad = " ".repeat(indent);
    const valueCol = indent + labelWidth + 2;
    const room = this.o.width - valueCol;
    const cleanLabel = cleanLine(label);
    const labelFits = displayWidth(cleanLabel) <= labelWidth;
    if (isUrl(value)) {
      // Beside its label when it fits there, else on a line of its own under it.
      if (labelFits && displayWidth(cleanLine(value)) <= room)
        return [`${pad + padEnd(cleanLabel, labelWidth)}  ${this.urlText(value, room)}`];
      return [pad + cleanLabel, `${pad}  ${this.urlText(value, this.o.width - indent - 2)}`];
    }
    const cell = this.inlineCell(value, path);
    const seq = leafOf(path) === "sequence" && !cell.dim ? sequenceUnits(cell.text) : undefined;
    const wrapText = (text: string, w: number) => (seq ? wrapUnits(seq.units, seq.sep, w) : wrap(text, w));
    if (!labelFits || room < 16) {
      const w = this.o.width - indent - INDENT;
      return [pad + cleanLabel, ...wrapText(cell.text, w).map((l) => pad + " ".repeat(INDENT) + this.paint(l, cell))];
    }
    const lines = wrapText(cell.text, room);
    return lines.map(
      (l, i) => (i === 0 ? `${pad + padEnd(cleanLabel, labelWidth)}  ` : " ".repeat(valueCol)) + this.paint(l, cell),
    );
  }

  /** Entries as aligned lines, nested objects as indented blocks, lists as bullets. */
  block(entries: Entry[], indent: number, depth: number): string[] {
    const inline = entries.filter((e) => isInline(e.value));
    const labelWidth = Math.min(
      MAX_LABEL,
      inline.reduce((m, e) => Math.max(m, displayWidth(cleanLine(e.label))), 0),
    );
    const lines: string[] = [];
    for (const e of entries) {
      if (isInline(e.value) || depth >= MAX_DEPTH) {
        lines.push(
          ...(isInline(e.value)
            ? this.labelled(e.label, e.value, indent, labelWidth, e.path)
            : this.labelled(e.label, valueText(e.value), indent, labelWidth, e.path)),
        );
      } else if (e.label === "" && Array.isArray(e.value)) {
        lines.push(...this.list(e.value, e.path, indent, depth + 1));
      } else if (isPlainObject(e.value)) {
        lines.push(" ".repeat(indent) + this.style.bold(cleanLine(e.label)));
        lines.push(...this.block(this.children(e.value, e.path), indent + INDENT, depth + 1));
      } else if (Array.isArray(e.value)) {
        lines.push(" ".repeat(indent) + this.style.bold(cleanLine(e.label)));
        lines.push(...this.list(e.value, e.path, indent + INDENT, depth + 1));
      }
    }
    return lines;
  }

  /**
   * A cited study in a few lines: its title, one line of what kind of study it is, the
   * finding, the source's URL whole; any other field labelled under them. Its API URL is
   * left out (`pep studies get <id>` reaches it) and its classification code when the
   * label says it.
   */
  private study(el: Plain, elPath: string, indent: number, depth: number): string[] {
    const pad = " ".repeat(indent);
    const room = this.o.width - indent - 2;
    const lines: string[] = [];
    const url = typeof el.url === "string" ? el.url : undefined;
    const linked = url !== undefined && this.style.canLink(url);
    const title = cleanLine(String(el.title));
    // A long title wraps; with links on, each of its lines is the link.
    wrap(title, room).forEach((l, j) => {
      const text = linked ? this.style.link(this.style.bold(l), url) : this.style.bold(l);
      lines.push(pad + (j === 0 ? "• " : "  ") + text);
    });
    const under = `${pad}  `;
    const year = el.publication_year ?? el.year;
    const kind = el.evidence_classification_label ?? el.evidence_classification;
    const nct = typeof el.nct_id === "string" && el.nct_id !== "" ? `NCT ID ${el.nct_id}` : undefined;
    const facts = [year, el.study_type, kind, studyIdOf(el), nct]
      .filter((v) => (typeof v === "string" && v !== "" && v !== NOT_DOCUMENTED) || typeof v === "number")
      .map((v) => cleanLine(String(v)));
    for (const l of wrap(facts.join(" · "), room)) lines.push(under + this.style.dim(l));
    if (el.finding_summary !== undefined) {
      const cell = this.inlineCell(el.finding_summary, `${elPath}.finding_summary`);
      for (const l of wrap(cell.text, room)) lines.push(under + this.paint(l, cell));
    }
    if (isUrl(el.source_url)) lines.push(under + this.urlText(el.source_url, room));
    // The address is shown as text too: a terminal may not show the title's link.
    if (url !== undefined && url !== el.source_url && isUrl(url)) lines.push(under + this.urlText(url, room));
    for (const k of STUDY_COMPACT_KEYS) this.used.add(`${elPath}.${k}`);
    lines.push(...this.block(this.children(el, elPath), indent + INDENT, depth + 1));
    return lines;
  }

  /** A bulleted list: scalars as text, objects by their title with their other fields under it. */
  list(items: readonly unknown[], path: string, indent: number, depth: number): string[] {
    const table = smallTable(items, indent, this.o.width, this.style, (v, k) => this.inlineCell(v, k));
    if (table) return table;
    const pad = " ".repeat(indent);
    const lines: string[] = [];
    let repeated = 0;
    items.forEach((el, i) => {
      const elPath = `${path}.${i}`;
      if (isPlainObject(el) && isStudy(el) && depth < MAX_DEPTH) {
        // The same id with another title is not the same entry: both are shown.
        const id = `${studyIdOf(el)}\u0000${String(el.title)}`;
        if (this.shownStudies.has(id)) {
          repeated++;
          return;
        }
        this.shownStudies.add(id);
        lines.push(...this.study(el, elPath, indent, depth));
        return;
      }
      if (!isPlainObject(el) || isInline(el) || depth >= MAX_DEPTH) {
        const cell = Array.isArray(el) || isPlainObject(el) ? { text: valueText(el) } : this.inlineCell(el);
        if (isUrl(el)) {
          lines.push(`${pad}• ${this.urlText(el, this.o.width - indent - 2)}`);
          return;
        }
        wrap(cell.text, this.o.width - indent - 2).forEach((l, j) =>
          lines.push(pad + (j === 0 ? "• " : "  ") + this.paint(l, cell)),
        );
        return;
      }
      const tk = titleKeyOf(el);
      const url = typeof el.url === "string" ? el.url : undefined;
      if (tk) {
        this.used.add(`${elPath}.${tk}`);
        const title = cleanLine(String(el[tk]));
        const room = this.o.width - indent - 2;
        wrap(title, room).forEach((l, j) => {
          const text = url !== undefined ? this.style.link(this.style.bold(l), url) : this.style.bold(l);
          lines.push(pad + (j === 0 ? "• " : "  ") + text);
        });
        lines.push(...this.block(this.children(el, elPath), indent + INDENT, depth + 1));
        return;
      }
      const body = this.block(this.children(el, elPath), indent + INDENT, depth + 1);
      const first = body[0];
      if (first?.startsWith(`${pad}  `)) body[0] = `${pad}• ${first.slice(indent + 2)}`;
      else body.unshift(`${pad}•`);
      lines.push(...body);
    });
    if (repeated > 0) {
      const said =
        repeated === items.length
          ? `${repeated === 1 ? "This study is" : `All ${repeated} are`} listed above.`
          : `${repeated} more ${repeated === 1 ? "is" : "are"} listed above.`;
      lines.push(pad + this.style.dim(said));
    }
    return lines;
  }

  /** The body of a titled section: a lone object is spread, a lone list is bulleted, a lone text is a paragraph. */
  private sectionBody(title: string, entries: Entry[], paragraph = false): string[] {
    const only = entries.length === 1 ? entries[0] : undefined;
    if (only) {
      const v = only.value;
      if (isPlainObject(v) && !isInline(v)) {
        const children = this.children(v, only.path);
        // "Secondary reports / Studies / • …": a lone list needs no heading of its own.
        const lone = children.length === 1 ? children[0] : undefined;
        if (
          lone &&
          Array.isArray(lone.value) &&
          lone.value.length > 0 &&
          !isInline(lone.value) &&
          (GENERIC_LIST_KEYS.has(leafOf(lone.path)) || lone.value.every((e) => isPlainObject(e) && isStudy(e)))
        )
          return this.list(lone.value, lone.path, INDENT, 1);
        return this.block(children, INDENT, 1);
      }
      if (Array.isArray(v) && v.length > 0 && !isUrl(v[0])) {
        // Codes (countries, categories) read as one wrapped line; sentences as bullets.
        if (isScalarArray(v) && v.every((e) => typeof e !== "string" || displayWidth(e) <= 12)) {
          const cell = this.inlineCell(v, only.path);
          return wrap(cell.text, this.o.width - INDENT).map((l) => " ".repeat(INDENT) + this.paint(l, cell));
        }
        return this.list(v, only.path, INDENT, 1);
      }
      // "Returns / Returns  unknown" says it twice: under its own title a value stands alone.
      if (isInline(v) && only.label.toLowerCase() === title.toLowerCase()) {
        if (isUrl(v)) return [" ".repeat(INDENT) + this.urlText(v, this.o.width - INDENT)];
        const cell = this.inlineCell(v);
        return wrap(cell.text, this.o.width - INDENT).map((l) => " ".repeat(INDENT) + this.paint(l, cell));
      }
      // A lone text under a title of its own ("About": the description) is a paragraph.
      if (typeof v === "string" && !isUrl(v) && (paragraph || displayWidth(v) > this.o.width / 2)) {
        const cell = this.inlineCell(v);
        return wrap(cell.text, this.o.width - INDENT).map((l) => " ".repeat(INDENT) + this.paint(l, cell));
      }
    }
    return this.block(entries, INDENT, 1);
  }

  private section(title: string, entries: Entry[], paragraph = false): string[] {
    if (entries.length === 0) return [];
    const body = this.sectionBody(title, entries, paragraph);
    if (body.length === 0) return [];
    return ["", this.style.heading(truncate(cleanLine(title), this.o.width)), ...body];
  }

  private entryAt(data: Plain, path: string): Entry | undefined {
    if (this.consumed(path)) return undefined;
    const v = getPath(data, path);
    if (v === undefined) return undefined;
    if (isPlainObject(v) && Object.keys(v).length > 0 && this.children(v, path).length === 0) return undefined;
    return { label: humanize(path), value: v, path };
  }

  render(data: unknown, layout: CardLayout): string[] {
    if (!isPlainObject(data)) {
      if (Array.isArray(data)) return this.list(data, "", 0, 0);
      return this.labelled("Value", data, 0, 5);
    }
    const lines: string[] = [];
    const titlePath = layout.titleKeys.find((p) => {
      const v = getPath(data, p);
      return (typeof v === "string" && v.trim() !== "") || typeof v === "number";
    });
    const urlPath = (layout.urlKeys ?? ["url"]).find((p) => typeof getPath(data, p) === "string");
    if (titlePath) {
      this.used.add(titlePath);
      const title = cleanLine(String(getPath(data, titlePath)));
      const url = urlPath ? getPath(data, urlPath) : undefined;
      const linked = url !== undefined && this.style.canLink(url);
      for (const l of wrap(title, this.o.width))
        lines.push(linked ? this.style.link(this.style.bold(l), url) : this.style.bold(l));
      if (urlPath && typeof url === "string") {
        this.used.add(urlPath);
        // Always as text as well: a terminal that does not render the title's link
        // would otherwise lose the address.
        lines.push(
          this.style.dim(isUrl(url) ? this.urlText(url, this.o.width) : truncate(cleanLine(url), this.o.width)),
        );
      }
    }

    // Claim the paths each section names before the overview takes the leftovers.
    const claim = (specs: SectionSpec[] | undefined) =>
      (specs ?? []).map((s) => {
        const entries = s.keys.map((k) => this.entryAt(data, k)).filter((e): e is Entry => e !== undefined);
        for (const e of entries) this.used.add(e.path);
        return { title: s.title, entries, paragraph: s.paragraph === true };
      });
    const sections = claim(layout.sections);
    const trailing = claim(layout.trailing);
    const overview = (layout.overview ?? [])
      .map((k) => this.entryAt(data, k))
      .filter((e): e is Entry => e !== undefined);
    for (const e of overview) this.used.add(e.path);
    // Unclaimed top-level keys: inline ones join the overview, the rest get sections of their own.
    const rest: Entry[] = [];
    for (const [k, v] of Object.entries(data)) {
      if (this.consumed(k)) continue;
      if (isInline(v)) {
        this.used.add(k);
        overview.push({ label: humanize(k), value: v, path: k });
      } else rest.push({ label: humanize(k), value: v, path: k });
    }
    // Claimed paths are skipped only as children of other entries, so each entry still renders here.
    if (overview.length > 0) lines.push(...(lines.length > 0 ? [""] : []), ...this.block(overview, 0, 0));
    for (const s of sections) lines.push(...this.section(s.title, s.entries, s.paragraph));
    for (const e of rest) {
      const entry = this.entryAt(data, e.path);
      if (entry) {
        lines.push(...this.section(entry.label, [entry]));
        this.used.add(entry.path);
      }
    }
    for (const s of trailing) lines.push(...this.section(s.title, s.entries, s.paragraph));
    return lines;
  }
}

/** A card's lines (styled, no trailing newline). */
export function renderCard(data: unknown, layout: CardLayout, options: CardOptions): string[] {
  return new CardWriter(options).render(data, layout);
}
