/**
 * Options as data. One definition per flag says its names, its value, the API parameter
 * it fills and how its value is turned into that parameter; commander's flag string,
 * help, man pages, completion scripts, the query and the type of a command's `opts` are
 * all derived from it, so nothing parses a flag string back.
 *
 * To add a command option: add an entry to the command's list in `<noun>/options.ts` (or
 * its definition's `options`), wrapped in `options([...])` so its key stays a literal
 * type. Give it `param` when it fills a query parameter: `runList`/`commandQuery` then
 * send it, checked by the endpoint's schema, with no code in the command. The command's
 * `run` is typed `Run<typeof THE_LIST>` (or `ListRun<…>`) and reads `opts.<key>`.
 *
 * To add a global option: add it to `GLOBAL_OPTIONS` in `api/globals.ts`.
 * `GlobalOptions` (its parsed values) follows from the list; read it where the setting
 * is resolved (`config/resolve.ts` for settings with an environment variable or a
 * config key, `main.ts` for how a run is shaped), and let commands see the result
 * through the context rather than the raw flag.
 */
import { LIMITS } from "./enums.js";

export interface OptionDef {
  /**
   * The key its value is stored under in `opts`: commander's camel case of `long`,
   * without a `no-` (`evidenceLevel`, `retry` for `--no-retry`). Checked when the
   * program is built.
   */
  key: string;
  /** Long name without the dashes: `evidence-level`, `no-retry`. */
  long: string;
  /** One-letter short name without the dash: `o` for `-o`. */
  short?: string;
  /** Placeholder of the value, `level` for `<level>`; absent for a switch. */
  value?: string;
  description: string;
  /**
   * Allowed values, for help, man pages and completion (validation is the endpoint
   * schema's). Matched without regard to case, each member of a comma-separated list too.
   */
  choices?: readonly string[];
  /**
   * Words people type for a value (`rct`): a value that is none of the `choices` is
   * refused before the schema, with the one its word means (`refuseUnknownChoices`);
   * never sent in its place.
   */
  synonyms?: Readonly<Record<string, string>>;
  /** Default shown in help. */
  default?: string | number | boolean;
  /** The API query parameter this flag fills. */
  param?: string;
  /** Turns the value into what the parameter takes (`us` -> `US`); may throw a UsageError. */
  transform?: (value: unknown) => unknown;
  /** May be given more than once (values collected in an array). */
  repeatable?: boolean;
  /** Values are `key=value` query parameters the spec does not show (`--param`). */
  pairs?: boolean;
  hidden?: boolean;
}

/** A list of options whose keys keep their literal types (for `OptionValues`). */
export function options<const O extends readonly OptionDef[]>(list: O): O {
  return list;
}

/** One option whose key keeps its literal type. */
export function option<const O extends OptionDef>(o: O): O {
  return o;
}

/** The value commander gives an option: a string, strings when repeatable, true/false for a switch. */
type ValueOf<O extends OptionDef> = O extends { value: string }
  ? O extends { repeatable: true }
    ? string[]
    : string
  : boolean;

/** The parsed values of a list of options, by key: what a command's `run` receives as `opts`. */
export type OptionValues<O extends readonly OptionDef[]> = { [E in O[number] as E["key"]]?: ValueOf<E> };

/** `--evidence-level` */
export function longName(o: OptionDef): string {
  return `--${o.long}`;
}

/** Every name of an option: `["-o", "--output"]`. */
export function flagNames(o: OptionDef): string[] {
  return o.short ? [`-${o.short}`, longName(o)] : [longName(o)];
}

/** The flag string commander takes: `-o, --output <format>`, `--no-retry`. */
export function flagString(o: OptionDef): string {
  return `${o.short ? `-${o.short}, ` : ""}${longName(o)}${o.value !== undefined ? ` <${o.value}>` : ""}`;
}

/** `--page-size`'s words for a page of at most `max` items. */
export function pageSizeDescription(max: number): string {
  return `items per request, 1 to ${max} (default: min(limit, ${max}); ${max} with --all)`;
}

/**
 * Options every list command takes (docs/cli.md#lists-and-pagination), as the man page's
 * general section shows them; each command's own show its endpoint's default and largest
 * `limit` (api/command-options.ts).
 */
export const LIST_OPTIONS = options([
  { key: "limit", long: "limit", value: "n", description: "most items to print in all; pages are fetched as needed" },
  { key: "all", long: "all", description: "follow the cursors to the last page" },
  {
    key: "pageSize",
    long: "page-size",
    value: "n",
    description: pageSizeDescription(LIMITS.pageMax),
  },
  {
    key: "cursor",
    long: "cursor",
    value: "cursor",
    description: "start from this cursor (as told on stderr by an earlier run)",
  },
]);
