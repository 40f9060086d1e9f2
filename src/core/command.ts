/**
 * What a command is: a definition kept as plain data (name, arguments, options,
 * examples), from which the commander tree, help, man pages and completions are built,
 * whose code `commands/loaders.ts` imports only when it runs.
 *
 * A command's `run()` validates its input and returns a `Result`; it never writes to
 * stdout. The output layer (`src/output/`) turns the result into table, JSON, CSV, ...
 */
import type { EndpointName } from "../api/endpoints.js";
import type { OutputFormat } from "../api/enums.js";
import type { Resource } from "../api/resources.js";
import type { Context } from "./command-context.js";
import type { Meta } from "../http/client-types.js";
import type { LIST_OPTIONS, OptionDef, OptionValues } from "../api/options.js";

export type { OptionDef, OptionValues } from "../api/options.js";

/** A command group (`pep peptides …`), for help and man pages. */
export interface GroupInfo {
  summary: string;
  aliases?: readonly string[];
  examples?: readonly string[];
}

export interface ArgDef {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  /** Allowed values, for help, man pages and completion (`pep completion <shell>`). */
  choices?: readonly string[];
}

export interface CommandDef {
  /** Words after `pep`: `["peptides", "list"]`, `["health"]`. */
  path: readonly string[];
  aliases?: readonly string[];
  /** The default subcommand of its group (`pep peptides` = `pep peptides list`). */
  isDefault?: boolean;
  /** One line, no final period. */
  summary: string;
  /** Paragraphs for `--help` and the man page. */
  description?: string;
  /**
   * The same paragraphs, for a command whose text takes work to build (`pep mcp` lists
   * every tool): called only when help or a man page is made, never on a plain run's
   * start-up. Read both through `descriptionOf(def)`.
   */
  describe?: () => string;
  args?: readonly ArgDef[];
  options?: readonly OptionDef[];
  /** Two or three real command lines, each optionally followed by `  # comment`. */
  examples?: readonly string[];
  /** Takes `--limit --all --page-size --cursor` (`--limit`'s default is the endpoint's `defaultLimit`). */
  list?: boolean;
  /** Prints a list and takes `--fields` without the list options (`studies export`). */
  fields?: boolean;
  /** Output formats beyond table/json/ndjson/csv/tsv (citations for study commands). */
  extraFormats?: readonly OutputFormat[];
  /** Format when neither -o nor PEP_OUTPUT chooses one (`studies export` writes csv). */
  defaultFormat?: OutputFormat;
  /** The endpoint it calls (docs say `GET /peptides`; CSV headers are its resource's). */
  calls?: EndpointName;
  /** How it calls it, when that is worth saying (`every page`). */
  callsNote?: string;
  /** Needs no API at all (config, completion): `--sandbox` and base URL are not required. */
  offline?: boolean;
  /** A check whose answer is its exit status (`pep health`): with `-q` it prints nothing. */
  probe?: boolean;
  /**
   * Makes the profile when it is not stored yet (`config set`, `auth login`); every other
   * command refuses a profile that is neither `default` nor in the config file (exit 2).
   */
  createsProfile?: boolean;
  /**
   * Starts with any profile, known or not, and reports a configuration problem itself
   * (`pep mcp`: a client that cannot start the server only says "connection closed");
   * offline too, where what the library cannot answer is its own to say.
   */
  reportsConfig?: boolean;
  /**
   * Fails (exit 2) before reading anything, the key included, when no base URL is known:
   * `auth login` must not ask for a key it cannot check.
   */
  needsBaseUrl?: boolean;
  /**
   * Standard input and output carry a protocol (`pep mcp`): `--api-key-file -` (the key
   * from stdin) and `--file` are refused before anything is read.
   */
  stdioProtocol?: boolean;
  /**
   * With these options the command prints a line of text (a page's address) after a
   * request: `--jq` and `--file`, which are for data, are refused before the request.
   */
  printsText?: (opts: Record<string, unknown>) => boolean;
}

/** A definition's paragraphs for help and man pages, built now when it has `describe`. */
export function descriptionOf(def: Pick<CommandDef, "description" | "describe">): string | undefined {
  return def.description ?? def.describe?.();
}

export interface CommandInput<Opts = Record<string, unknown>> {
  /** Positional arguments, variadic ones flattened. */
  args: string[];
  /** This command's options by key (`evidenceLevel`), global ones excluded. */
  opts: Opts;
}

export interface CommandModule {
  run(input: CommandInput, ctx: Context): Promise<Result>;
}

/**
 * A command's `run`, its `opts` typed from its option definitions (as wrangler derives a
 * handler's arguments): `export const run: Run<typeof VENDOR_OPTIONS> = ({ opts }) => …`,
 * where `opts.shipsTo` is `string | undefined`.
 */
export type Run<O extends readonly OptionDef[] = readonly []> = (
  input: CommandInput<OptionValues<O>>,
  ctx: Context,
) => Promise<Result>;

/** The `run` of a list command: its own options and `--limit --all --page-size --cursor`. */
export type ListRun<O extends readonly OptionDef[] = readonly []> = Run<readonly [...O, ...typeof LIST_OPTIONS]>;

export type { Resource } from "../api/resources.js";

export interface ListResult {
  kind: "list";
  resource: Resource;
  items: AsyncIterable<unknown>;
  /** `meta` of the latest page (affiliate disclosure), read after iterating. */
  meta(): Meta | undefined;
  /** Cursor for the next page when the run stopped with more remaining. */
  nextCursor(): string | undefined;
  /**
   * Where the page being read began: its cursor (undefined for the first) and the items
   * before it. The output stopped there (the pager quit) continues from it.
   */
  pageAt?(): { cursor: string | undefined; before: number };
  /** Progress for the spinner. */
  progress?(): { pages: number; items: number };
  /** What the spinner says of this list (default: `Fetching <items>`, counting items and pages). */
  spinner?: { label: string; unit: readonly [one: string, many: string] };
  /**
   * The last item handed out was the last of its page: what came so far is a whole page
   * (`--jq` runs page by page, and a run stops only there). Absent: every item is one.
   */
  pageEnded?(): boolean;
  /** The cursor that fetched the page the last item came from (undefined: the first page). */
  pageCursor?(): string | undefined;
  /** Columns chosen with `--fields`. */
  fields?: string[] | undefined;
  /**
   * The run's exit code once the whole list is delivered, when it is not 0 without an
   * error (`pep changes --exit-status`: changes were found).
   */
  exitCode?: number | undefined;
  /**
   * The query parameters the user's flags filled (`peptide` for `--peptide`): a table
   * column that only repeats one of them is the first to give way.
   */
  filters?: readonly string[] | undefined;
}

export interface ItemResult {
  kind: "item";
  resource: Resource;
  data: unknown;
  meta?: Meta | undefined;
  /** The run's exit code once the item is printed, when it is not 0 (`pep sync --exit-status`: changes found). */
  exitCode?: number | undefined;
}

/** Raw JSON printed as is (`pep api`): a whole body, or a stream of items as NDJSON. */
export interface RawResult {
  kind: "raw";
  body?: unknown;
  /** The body's JSON text as the API sent it: printed as is, its numbers as written. */
  text?: string;
  items?: AsyncIterable<unknown>;
  meta?(): Meta | undefined;
  /** As a list's: the last item out ended its page. */
  pageEnded?(): boolean;
}

/** Text printed as is (completion scripts, `config path`). */
export interface TextResult {
  kind: "text";
  text: string;
}

/** Nothing for stdout (the command told the user on stderr, e.g. `auth logout`). */
export interface NoneResult {
  kind: "none";
  /** Exit code other than 0 without an error (e.g. `auth status` when the key is refused). */
  exitCode?: number;
}

/**
 * Several ids looked up in one run (`pep peptides get a b c`, ids from stdin with `-`):
 * each id's own result, or why it failed, in the order the ids were given.
 */
export interface BatchResult {
  kind: "batch";
  /** The resource of each item (a list command's: of each list's items). */
  resource: Resource;
  entries: AsyncIterable<BatchEntry>;
}

export type BatchEntry =
  | { id: string; result: ItemResult | ListResult; error?: undefined }
  | { id: string; error: unknown; result?: undefined };

export type Result = ListResult | ItemResult | RawResult | TextResult | NoneResult | BatchResult;
