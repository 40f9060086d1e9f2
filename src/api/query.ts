/**
 * Flag values -> API query parameters, driven by each option definition's `param`, so
 * the flag a user typed and the parameter sent are written down once (in the
 * definition), every value is judged by the endpoint's schema before any request, and
 * every message about a bad value names the flag (exit 2, nothing sent).
 */
import type { Endpoint } from "./endpoints.js";
import { checkQuery } from "./query-schemas.js";
import type { Context } from "../core/command-context.js";
import { UsageError } from "../core/errors.js";
import type { Query } from "../http/client-types.js";
import { longName, type OptionDef } from "./options.js";
import { extraParams } from "./pairs.js";
import { cleanLine } from "../core/sanitize.js";
import { eitherOf, meant } from "../core/suggest.js";
import { countryCode } from "./countries.js";
import { VALUE_SYNONYMS } from "./enums.js";

/** `evidence_level` -> `--evidence-level`, unless a command says otherwise. */
export function flagFor(param: string, flags: Record<string, string> = {}): string {
  return flags[param] ?? `--${param.replace(/_/g, "-")}`;
}

/**
 * Checks a query against the endpoint's schema and returns it as strings for the URL.
 * `flags` maps a parameter to the flag (or argument) the user typed, for messages.
 */
export function checkParams(
  endpoint: Endpoint,
  raw: Record<string, unknown>,
  flags: Record<string, string> = {},
): Query {
  // Null-prototype maps: a parameter named `__proto__` or `constructor` is kept as given.
  const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) query[k] = v;
  const checked = checkQuery(endpoint, query);
  if (!checked.ok) {
    const [first, ...rest] = checked.problems;
    const params = new Set(Object.keys((endpoint.query as unknown as { shape?: object }).shape ?? {}));
    const told = (p: NonNullable<typeof first>) => tellProblem(p, query[p.param], flags, params);
    const head = told(first!);
    throw new UsageError(head.line, {
      hints: [...head.hints, ...rest.map((p) => `also: ${told(p).line}`)],
    });
  }
  // Send what the user typed (strings), not the coerced values: `4.50` stays `4.50`.
  const out: Query = Object.create(null) as Query;
  for (const [k, v] of Object.entries(query)) out[k] = v as Query[string];
  return out;
}

/**
 * One bad value, said as every message of pep says it: the flag (never the API's
 * parameter name, also inside the message), what it accepts, `(got …)`, and for a name
 * that is a slip of a valid one, `did you mean …?`. For a list (`--fields a,b`), which
 * names were wrong.
 */
function tellProblem(
  p: { param: string; message: string },
  value: unknown,
  flags: Record<string, string>,
  params: ReadonlySet<string>,
): { line: string; hints: string[] } {
  const flag = flagFor(p.param, flags);
  // `must not be later than year_to` names the other parameter: as its flag.
  // (A list of accepted values is left as it is: a field may share a parameter's name.)
  const message = /^must be (one of|a comma-separated list of):/.test(p.message)
    ? p.message
    : p.message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (name) => (params.has(name) && name in flags ? flags[name]! : name));
  const typed = typeof value === "string" || typeof value === "number" ? String(value) : undefined;
  const got = typed === undefined ? "" : ` (got "${cleanLine(typed.length > 80 ? `${typed.slice(0, 80)}…` : typed)}")`;
  const hints: string[] = [];
  const oneOf = /^must be one of: (.+)$/.exec(p.message);
  const listOf = /^must be a comma-separated list of: (.+)$/.exec(p.message);
  if (oneOf && typed !== undefined) {
    const values = meant(typed, oneOf[1]!.split(", "), VALUE_SYNONYMS[p.param]);
    if (values.length > 0) hints.push(`Did you mean ${eitherOf(values)}? (\`${flag} ${values[0]}\`)`);
  }
  // A country's name or alpha-3 code where the alpha-2 code goes: `--ships-to USA` is US.
  if ((p.param === "ships_to" || p.param === "country") && typed !== undefined) {
    const code = countryCode(typed);
    if (code) hints.push(`Did you mean \`${code}\`? (\`${flag} ${code}\`)`);
  }
  if (listOf && typed !== undefined) {
    const names = listOf[1]!.split(", ");
    const wrong = typed
      .split(",")
      .map((n) => n.trim())
      .filter((n) => n !== "" && !names.includes(n));
    if (wrong.length > 0) {
      for (const w of wrong) {
        const values = meant(w, names, VALUE_SYNONYMS[p.param]);
        if (values.length > 0) hints.push(`Did you mean ${eitherOf(values)} for \`${cleanLine(w)}\`?`);
      }
      const which = wrong.map((w) => `"${cleanLine(w)}"`).join(", ");
      return { line: `${flag} ${message} (not known: ${which})`, hints };
    }
  }
  return { line: `${flag} ${message}${got}`, hints };
}

export interface MappedQuery {
  /** Parameter -> value as typed (unchecked; `checkParams` is the judge). */
  raw: Record<string, unknown>;
  /** Parameter -> the flag that fills it, for messages. */
  flags: Record<string, string>;
}

/**
 * A value of an option with fixed choices, matched without regard to case (`--category
 * Cognitive` is `cognitive`), as codes such as `--ships-to us` are; each member of a
 * comma-separated list alike (`--types Peptides,Content`). Anything else as given, for
 * the endpoint's schema to judge.
 */
function choiceOf(o: OptionDef, value: unknown): unknown {
  if (!o.choices || typeof value !== "string" || o.choices.includes(value)) return value;
  const choices = o.choices;
  const one = (part: string) => {
    const lower = part.trim().toLowerCase();
    return choices.find((c) => c.toLowerCase() === lower) ?? part;
  };
  return value.includes(",") ? value.split(",").map(one).join(",") : one(value);
}

/**
 * Refuses a value of an option with synonyms (`--evidence-classification`) that is none
 * of its choices, before the endpoint schema would, so that a word people type (`rct`)
 * gets the value it means, or else the closest spelling.
 */
export function refuseUnknownChoices(o: OptionDef, value: unknown): void {
  if (!o.synonyms || !o.choices || typeof value !== "string") return;
  const choices = o.choices;
  const unknown = value
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "" && !choices.includes(p));
  if (unknown.length === 0) return;
  const hints = unknown.flatMap((u) => {
    const values = meant(u, choices, o.synonyms);
    const best = values[0];
    return best ? [`Did you mean ${eitherOf(values)} for \`${cleanLine(u)}\`? (\`${longName(o)} ${best}\`)`] : [];
  });
  const which = unknown.map((u) => `"${cleanLine(u)}"`).join(", ");
  throw new UsageError(
    `${longName(o)} must be a comma-separated list of: ${choices.join(", ")} (not known: ${which})`,
    {
      hints,
    },
  );
}

/**
 * The query parameters filled by the options that carry a `param` (each value through
 * the option's `transform`), plus the `key=value` pairs of an option marked `pairs`
 * (`--param`). A pair naming a parameter a flag covers is refused: `reserved` adds the
 * parameters covered by flags outside `options` (the list flags).
 */
export function queryFromOptions(
  opts: Record<string, unknown>,
  options: readonly OptionDef[],
  reserved: Record<string, string> = {},
): MappedQuery {
  const raw: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const flags: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const o of options) {
    if (!o.param) continue;
    flags[o.param] = longName(o);
    const value = opts[o.key];
    if (value === undefined) continue;
    raw[o.param] = o.transform ? o.transform(value) : choiceOf(o, value);
    refuseUnknownChoices(o, raw[o.param]);
  }
  for (const o of options) {
    if (!o.pairs) continue;
    const extra = extraParams(opts[o.key], { ...flags, ...reserved }, longName(o));
    Object.assign(raw, extra);
  }
  return { raw, flags };
}

/** The checked query of a command that is not a list: its options and `extra` values (arguments). */
export function commandQuery(
  endpoint: Endpoint,
  opts: Record<string, unknown>,
  options: readonly OptionDef[],
  extra: { raw?: Record<string, unknown>; flags?: Record<string, string> } = {},
): Query {
  const { raw, flags } = queryFromOptions(opts, options);
  return checkParams(endpoint, { ...raw, ...extra.raw }, { ...flags, ...extra.flags });
}

/** `--fields` for endpoints that take a `fields` parameter: sent to the API and used as columns. */
export function fieldsParam(ctx: Context): string | undefined {
  if (ctx.fields === undefined) return undefined;
  if (ctx.fields.length === 0) throw new UsageError("--fields must name at least one field, comma-separated");
  return ctx.fields.join(",");
}

/** `--fields a,b` as columns only (for endpoints that take no `fields` parameter). */
export function fieldColumns(ctx: Context): string[] | undefined {
  return ctx.fields?.length ? [...ctx.fields] : undefined;
}
