/**
 * Tool results: the API's data cleaned of control characters and of the key, the
 * notices every result carries, and a short text rendering beside the structured JSON.
 */
import type { Meta } from "../http/types.js";
import { cleanLine, stripTerminalControls } from "../output/sanitize.js";
import { RESEARCH_NOTICE } from "../core/research-notice.js";

export const SANDBOX_DATA_NOTICE =
  "SYNTHETIC SANDBOX DATA: generated for trying pep out. These are not real peptides' research, studies, vendors or prices; never cite or rely on them.";

/** Replaces every appearance of the key (as is, or URL-encoded) in a text. */
export type Redact = (text: string) => string;

export function redactor(key: string | undefined, replacement: string): Redact {
  if (!key) return (s) => s;
  const forms = [...new Set([key, encodeURIComponent(key)])].filter((f) => f.length > 0);
  return (s) => forms.reduce((text, form) => (text.includes(form) ? text.split(form).join(replacement) : text), s);
}

/** A copy of `value` with every string and key cleaned of control characters and the key. */
export function cleanDeep(value: unknown, redact: Redact, depth = 0): unknown {
  if (typeof value === "string") return redact(stripTerminalControls(value));
  if (depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => cleanDeep(v, redact, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // defineProperty: a key named __proto__ stays an ordinary field.
    Object.defineProperty(out, redact(stripTerminalControls(k)), {
      value: cleanDeep(v, redact, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

export interface Notices {
  research_notice: string;
  sandbox: boolean;
  sandbox_notice?: string;
  affiliate_disclosure?: string;
}

/** `disclosureText` of the output layer, handed in so that this module does not load it at start. */
export type DisclosureText = (meta: Meta | undefined) => string | undefined;

export function noticesOf(meta: Meta | undefined, redact: Redact, disclosureText: DisclosureText): Notices {
  const sandbox = meta?.sandbox === true;
  const disclosure = disclosureText(meta);
  return {
    research_notice: RESEARCH_NOTICE,
    sandbox,
    ...(sandbox ? { sandbox_notice: SANDBOX_DATA_NOTICE } : {}),
    ...(disclosure ? { affiliate_disclosure: redact(disclosure) } : {}),
  };
}

const MAX_VALUE = 240;
const MAX_LINES = 40;
const MAX_ITEMS = 12;

function short(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const line = cleanLine(text === "not_documented" ? "not documented" : text);
  return line.length > MAX_VALUE ? `${line.slice(0, MAX_VALUE - 1)}…` : line;
}

function get(item: unknown, path: string): unknown {
  let at: unknown = item;
  for (const part of path.split(".")) {
    if (!at || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** What names an item, and a few facts worth a glance, by the resource's known fields. */
const LABEL = ["name", "title", "vendor.name", "label", "id"];
const FACTS = [
  "evidence.level",
  "regulatory_status",
  "publication_year",
  "evidence_classification",
  "country",
  "rating.average",
  "price",
  "currency",
  "last_seen_at",
];
const LINK = ["url", "source_url", "product_page_url", "profile_url"];

function itemLine(item: unknown): string {
  const label = LABEL.map((p) => get(item, p)).find((v) => typeof v === "string" || typeof v === "number");
  const id = get(item, "id");
  const facts = FACTS.map((p) => [p, get(item, p)] as const).filter(
    ([, v]) => v !== undefined && v !== null && typeof v !== "object",
  );
  const link = LINK.map((p) => get(item, p)).find((v) => typeof v === "string");
  let line = `- ${label !== undefined ? short(label) : short(item)}`;
  if (id !== undefined && id !== label) line += ` [${short(id)}]`;
  if (facts.length) line += `: ${facts.map(([k, v]) => `${k} ${short(v)}`).join(", ")}`;
  if (link) line += ` <${short(link)}>`;
  return line;
}

function noticeLines(n: Notices): string[] {
  return [
    ...(n.sandbox_notice ? [n.sandbox_notice] : []),
    n.research_notice,
    ...(n.affiliate_disclosure ? [`Affiliate disclosure: ${n.affiliate_disclosure}`] : []),
  ];
}

export function listText(noun: string, items: readonly unknown[], nextCursor: string | null, notices: Notices): string {
  const lines = [
    `${items.length} ${noun}${nextCursor ? ` (more remain: call again with cursor "${cleanLine(nextCursor)}")` : ""}`,
  ];
  lines.push(...items.map(itemLine));
  return [...lines, "", ...noticeLines(notices)].join("\n");
}

export function itemText(title: string, data: unknown, notices: Notices): string {
  const lines = [title];
  if (data && typeof data === "object" && !Array.isArray(data)) {
    const entries = Object.entries(data);
    for (const [k, v] of entries.slice(0, MAX_LINES)) {
      // A section that is a list of records (search hits, citing profiles) reads as one line each.
      if (
        Array.isArray(v) &&
        v.length > 0 &&
        v.every((x) => x !== null && typeof x === "object" && !Array.isArray(x))
      ) {
        lines.push(`${cleanLine(k)} (${v.length}):`, ...v.slice(0, MAX_ITEMS).map((x) => `  ${itemLine(x)}`));
        if (v.length > MAX_ITEMS) lines.push(`  … ${v.length - MAX_ITEMS} more in the structured result`);
      } else lines.push(`${cleanLine(k)}: ${short(v)}`);
    }
    if (entries.length > MAX_LINES) lines.push(`… ${entries.length - MAX_LINES} more fields in the structured result`);
  } else if (Array.isArray(data)) {
    lines.push(...data.slice(0, MAX_LINES).map(itemLine));
  } else {
    lines.push(short(data));
  }
  return [...lines, "", ...noticeLines(notices)].join("\n");
}
