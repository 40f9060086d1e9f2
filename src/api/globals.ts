/**
 * The global options (docs/cli.md#global-options): taken by every command, before or after its
 * name. `GlobalOptions`, what commander parses them into, follows from this list; see
 * `api/options.ts` for how to add one.
 */
import { CITATION_FORMATS, OUTPUT_FORMATS, PEPTIDE_FIELDS, STUDY_FIELDS, VENDOR_FIELDS } from "./enums.js";
import { options, type OptionValues } from "./options.js";

/** Global options (docs/cli.md#global-options), in the order help shows them. */
export const GLOBAL_OPTIONS = options([
  {
    key: "output",
    long: "output",
    short: "o",
    value: "format",
    description: "output format (default: table on a terminal, json otherwise)",
    choices: [...OUTPUT_FORMATS, ...CITATION_FORMATS],
  },
  {
    key: "fields",
    long: "fields",
    value: "a,b,c",
    description: "fields to request and show, comma-separated (list commands)",
  },
  {
    key: "file",
    long: "file",
    value: "path",
    description:
      "write the output to this file, atomically; without -o its name chooses the format (.csv .tsv .json .ndjson .jsonl .bib .bibtex .ris .csl.json; other names need -o). A list cut short keeps what it fetched in <file>.partial, and the same command again finishes it",
  },
  {
    key: "restart",
    long: "restart",
    description: "with --file: start the list over, dropping what an earlier cut-short run kept in <file>.partial",
  },
  {
    key: "resumeMaxAge",
    long: "resume-max-age",
    value: "duration",
    description:
      "with --file: continue a partial kept by a cut-short run only when it is younger than this (30m, 24h, 7d; 0: never; default 24h; env PEP_RESUME_MAX_AGE)",
  },
  {
    key: "jq",
    long: "jq",
    value: "expr",
    description:
      "filter the JSON output with jq, as the pages arrive: each page's array with -o json (the default with --jq), each item with -o ndjson; the whole list at once with --slurp",
  },
  { key: "jqRaw", long: "jq-raw", description: "with --jq: print strings without quotes (jq -r)" },
  {
    key: "slurp",
    long: "slurp",
    description: "with --jq: the whole list as one array, jq run once after the last page (as gh's --slurp)",
  },
  { key: "baseUrl", long: "base-url", value: "url", description: "API base URL, ending in /v1 (env PEP_BASE_URL)" },
  {
    key: "apiKeyFile",
    long: "api-key-file",
    value: "path|-",
    description: "read the API key from a file, or stdin with - (env PEP_API_KEY)",
  },
  {
    key: "authHeader",
    long: "auth-header",
    value: "kind",
    description: "how the key is sent (env PEP_AUTH_HEADER)",
    choices: ["bearer", "x-api-key"],
    default: "bearer",
  },
  {
    key: "profile",
    long: "profile",
    value: "name",
    description: "named set of config values; must exist unless config set or auth login makes it (env PEP_PROFILE)",
    default: "default",
  },
  {
    key: "timeout",
    long: "timeout",
    value: "seconds",
    description: "per-request timeout, and the database time of a pep sql query (env PEP_TIMEOUT)",
    default: 30,
  },
  {
    key: "retries",
    long: "retries",
    value: "n",
    description: "retries of 429, 5xx and network errors (env PEP_RETRIES)",
    default: 3,
  },
  { key: "retry", long: "no-retry", description: "do not retry (same as --retries 0)" },
  { key: "cache", long: "no-cache", description: "skip the ETag cache (env PEP_NO_CACHE=1)" },
  {
    key: "proxy",
    long: "proxy",
    value: "url",
    description: "send requests through this http(s) proxy (instead of HTTPS_PROXY/HTTP_PROXY; NO_PROXY still applies)",
  },
  { key: "compress", long: "no-compress", description: "do not ask for compressed answers (gzip, br, deflate)" },
  {
    key: "formulaGuard",
    long: "no-formula-guard",
    description:
      "write CSV/TSV cells as the API sent them: no leading ' before = + - @, tab or CR, control characters kept off a terminal (config formula_guard)",
  },
  { key: "color", long: "no-color", description: "no colour (also NO_COLOR)" },
  {
    key: "pager",
    long: "no-pager",
    description: "do not page long output on a terminal (pager: env PEP_PAGER, profile pager, PAGER, else less -FRX)",
  },
  { key: "quiet", long: "quiet", short: "q", description: "no notices or progress on stderr" },
  {
    key: "verbose",
    long: "verbose",
    short: "v",
    description: "log each request and response status to stderr (key redacted)",
  },
  {
    key: "db",
    long: "db",
    value: "path|url",
    description:
      "the local library (pep sync, sql, changes): a SQLite file, or a postgres:// URL (env PEP_DB, config db; default: a file per profile in $PEP_DATA_DIR, else $XDG_DATA_HOME/pep)",
  },
  {
    key: "sandbox",
    long: "sandbox",
    description: "run against an in-process sandbox with synthetic data (env PEP_SANDBOX=1)",
  },
  {
    key: "offline",
    long: "offline",
    description: "answer from the local library (pep sync), same output (env PEP_OFFLINE=1, config offline)",
  },
  {
    key: "maxAge",
    long: "max-age",
    value: "duration",
    description:
      "with --offline, pep sql or pep changes: refuse (exit 6, library_stale) a resource last synced longer ago than this (7d, 12h, 30m)",
  },
  {
    key: "asOf",
    long: "as-of",
    value: "sync|date",
    description:
      "with --offline: answer as the library knew it at that complete sync (its id, or the last complete one at or before a date or ISO 8601 time)",
  },
  {
    key: "manifest",
    long: "manifest",
    description: "with --file: also write <file>.manifest.json (command, source, request ids, SHA-256)",
  },
]);

/** The field names the spec lists for `fields`: matched without regard to case. */
const KNOWN_FIELDS: ReadonlySet<string> = new Set([...PEPTIDE_FIELDS, ...STUDY_FIELDS, ...VENDOR_FIELDS]);

/**
 * `--fields a, b,,c` -> `["a", "b", "c"]`, split once per run; `[]` when given with no
 * name (an endpoint that takes `fields` refuses that), undefined when not given. A name
 * the spec lists is matched without regard to case, as enum values are (`ID,Name` is
 * `id,name`); any other keeps its case, for a field a newer API sends.
 */
export function splitFields(fields: string | undefined): string[] | undefined {
  return fields
    ?.split(",")
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => (KNOWN_FIELDS.has(f.toLowerCase()) ? f.toLowerCase() : f));
}

/** The parsed global options of one run. */
export type GlobalOptions = OptionValues<typeof GLOBAL_OPTIONS>;
