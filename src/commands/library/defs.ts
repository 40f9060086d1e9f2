/** `pep sync`, `pep sql`, `pep changes`: the local library (docs/library.md). */
import { LIBRARY_RESOURCES } from "../../api/enums.js";
import { options } from "../../api/options.js";
import type { CommandDef } from "../../core/command.js";

/** The resources `pep sync` takes (plain values: help loads no library code). */
export const SYNC_NAMES = LIBRARY_RESOURCES;

/** `pep changes --exit-status`: the exit code when the changes asked about exist (not an error code). */
export const CHANGES_FOUND_EXIT = 10;

const WHERE =
  "The library is one SQLite file per profile in $PEP_DATA_DIR, else $XDG_DATA_HOME/pep, else ~/.local/share/pep (library/<profile>.sqlite, mode 0600); --db, PEP_DB or the profile key db chooses another file or a postgres:// URL. pep sql --tables and --schema <table> describe its tables. The SQLite library needs Node.js 22.5 or later; PostgreSQL works on Node 20 too.";

export const SYNC_OPTIONS = options([
  {
    key: "full",
    long: "full",
    description: "refetch every page and detail whole (no If-None-Match), and start any cut-short walk over",
  },
  {
    key: "studyDetails",
    long: "study-details",
    description:
      "keep every study's own answer (for pep --offline studies get), one request a study, on this and every later sync",
  },
  {
    key: "studyDetails",
    long: "no-study-details",
    description: "stop keeping studies' own answers, and drop those kept (at this or the next sync of studies)",
  },
  {
    key: "status",
    long: "status",
    description:
      "sync nothing: show the library's place, size and schema version, and per resource its items and the age of its last complete walk",
  },
  {
    key: "wait",
    long: "no-wait",
    description: "when another sync holds the library, stop at once (exit 6) instead of waiting for it",
  },
  {
    key: "rebind",
    long: "rebind",
    description:
      "sync from this API although the library was synced from another (another base URL, or the sandbox): its items become this API's, each difference logged",
  },
  {
    key: "exitStatus",
    long: "exit-status",
    description: `exit ${CHANGES_FOUND_EXIT} when pep changes --since last has changes to show after this sync, 0 when it has none`,
  },
]);

export const SQL_OPTIONS = options([
  {
    key: "tables",
    long: "tables",
    description:
      "list the library's tables instead of running a query: the data first, then views, full-text indexes and pep's bookkeeping, with their rows and columns",
  },
  {
    key: "schema",
    long: "schema",
    value: "table",
    description: "list a table's columns, their types, keys and references instead of running a query",
  },
]);

export const CHANGES_OPTIONS = options([
  {
    key: "since",
    long: "since",
    value: "when",
    description:
      "changes found after this: a date or time (YYYY-MM-DD, or an ISO 8601 time), a duration back from now (7d, 12h, 30m), or last (the last complete sync, with every sync cut short since the complete one before it)",
  },
  {
    key: "resource",
    long: "resource",
    value: "resource",
    description: "only this resource's changes",
    choices: SYNC_NAMES,
  },
  {
    key: "prune",
    long: "prune",
    value: "age",
    description:
      "remove change rows older than this (7d, 12w) and the sync records as old that nothing still names (item versions stay for --as-of), say how many, and show nothing else",
  },
  {
    key: "versions",
    long: "versions",
    description:
      "with --prune: also remove the item versions and walk orders only an --as-of older than the age would read (such an --as-of is then refused)",
  },
  {
    key: "from",
    long: "from",
    value: "sync|date",
    description:
      "with --to: what moved between two complete syncs (a sync id, or the last complete one at or before a date), as the change log of the syncs after --from up to --to tells it",
  },
  {
    key: "to",
    long: "to",
    value: "sync|date",
    description: "with --from: the later sync (default: the last complete one)",
  },
  {
    key: "exitStatus",
    long: "exit-status",
    description: `exit ${CHANGES_FOUND_EXIT} when there are changes to show, 0 when there are none (for CI and cron)`,
  },
]);

export const defs: CommandDef[] = [
  {
    path: ["sync"],
    summary: "Fill the local library from the API, or bring it up to date",
    description: [
      "Fetches every page of each resource named (default: every one the key's scopes allow; a keyed one the key cannot read is skipped with one line), and for peptides and vendors each item's own answers (a peptide's profile, research summary, regulatory status and cited studies; a vendor's profile).",
      "A study's own answer (GET /studies/{id}, what pep studies get prints) is one more request a study, so it is kept only once asked for: --study-details keeps every study's, on this sync and every later one (each a 304 when unchanged), until --no-study-details drops them.",
      "Every page and detail is asked with If-None-Match: an unchanged one costs a 304 and no body, so a sync of an unchanged library is cheap. Requests are paced by the RateLimit headers. Progress shows on a terminal; off one, plain lines.",
      "A sync cut short (Ctrl-C, a server error) keeps every page it finished: the same command goes on from where it stopped, once the first and last kept pages, asked again, show the list has not moved (else that resource's walk starts over, said in one line; also when the pages are older than PEP_RESUME_MAX_AGE, default 24h). A sync killed outright is marked interrupted by the next one. --full refetches everything.",
      "A library is bound to the API it was synced from: --sandbox has a library of its own (unless --db names one), and a sync from another base URL is refused (exit 2) unless --rebind; --db keeps a second library.",
      "Each item's first and last sighting is kept, and what was added, changed (field, old value, new value) or removed goes to the change log (pep changes). Prints a summary; with -o json one object: resources, items, added, changed, removed, requests, not_modified (the 304s), seconds.",
      "One sync at a time per library: a second one waits for the first (--no-wait: exit 6). A reader never sees half a resource: each resource's table changes in one transaction at the end of its walk.",
      WHERE,
    ].join("\n\n"),
    args: [
      {
        name: "resource",
        description: `what to sync: ${SYNC_NAMES.join(", ")} (default: all the key allows)`,
        variadic: true,
        choices: SYNC_NAMES,
      },
    ],
    options: SYNC_OPTIONS,
    examples: [
      "pep sync  # every resource the key allows",
      "pep sync studies peptides -o json",
      "pep sync categories && pep sync categories -o json | jq .not_modified",
      "pep sync studies --study-details && pep --offline studies get pmid-90001067 -o bibtex",
      "pep sync --status  # how fresh and how big the library is",
    ],
  },
  {
    path: ["sql"],
    summary: "Run a read-only SQL query over the local library, or list its tables",
    description: [
      "The rows go through the same output as every list, as the database hands them over (never held whole): a table on a terminal, else JSON; -o ndjson, csv, tsv, --file, --jq. Columns are named as the query names them, and --fields keeps some of them (--fields id,title); a BLOB (bytea) shows as its bytes in hex, \\x0aff, as psql prints it.",
      "Only one statement, and only reading: SELECT, WITH, VALUES, EXPLAIN, and PRAGMA table_info(t) on SQLite. The database itself refuses the rest (exit 2): on SQLite the file is opened read-only, the statement prepared alone and every action it takes authorized; on PostgreSQL it runs as one statement of the extended protocol in a READ ONLY transaction. A read-only transaction does not stop a superuser's functions that act on the server: for a PostgreSQL library others share, give readers a role granted only SELECT. A SQL error says where in the query it is, and for a table or column the library lacks, the nearest names (exit 2).",
      "--timeout (default 30 seconds, also PEP_TIMEOUT) bounds the time the database spends on the query, summed over its pages: past it the query is stopped (exit 6). Ctrl-C stops it at once (exit 130).",
      "--tables lists the tables: one per resource (peptides, studies, vendors, products, prices, categories, research_areas) with the resource's CSV columns as typed columns (evidence.level is evidence_level) and the item as the API sent it (item), then details, peptide_studies, study_cited_by, changes, syncs, walks and meta, then the views (study_citing_peptides, peptide_cited_studies, peptide_price_ranges), the full-text indexes (SQLite: studies_fts, peptides_fts; PostgreSQL: the fts column) and pep's own bookkeeping (_pep_*). --schema <table> lists a table's columns, their types and what each references. Both print in every output format.",
      WHERE,
    ].join("\n\n"),
    args: [{ name: "query", description: "one SQL statement (SELECT, WITH, VALUES or EXPLAIN)" }],
    options: SQL_OPTIONS,
    fields: true,
    offline: true,
    examples: [
      "pep sync -q && pep sql --tables",
      "pep sync studies -q && pep sql --schema studies",
      "pep sync studies && pep sql 'SELECT study_type, COUNT(*) FROM studies GROUP BY 1'",
      "pep sync peptides -q && pep sql 'SELECT id, evidence_level FROM peptides' -o csv",
      "pep sync -q && pep sql 'SELECT * FROM syncs ORDER BY id DESC LIMIT 1' -o json",
    ],
  },
  {
    path: ["changes"],
    summary: "Show what the syncs found: added, changed and removed items",
    description: [
      "One row per change: when (at), the sync, the resource, the item's id, the kind (added, changed, removed), and for a change the field with its old and new value (as JSON). A change in a peptide's or vendor's own answers is named <kind>/<field> (regulatory/fda_status).",
      "--since takes a date, a duration back from now (7d) or last (what the last complete sync found, with what every sync cut short since the complete one before it found: a cron job reports each change once). Every output format works: -o json for a program, csv for a spreadsheet (the same columns whatever rows come; an old item is one JSON cell).",
      `To tell "something changed" from "nothing changed" without reading the output: --exit-status exits ${CHANGES_FOUND_EXIT} when there are changes to show and 0 when there are none (errors keep their own codes, 1 to 6); or count the rows of -o json.`,
      WHERE,
    ].join("\n\n"),
    options: CHANGES_OPTIONS,
    offline: true,
    examples: [
      "pep sync studies -q && pep changes --since last --resource studies",
      "pep sync -q && pep changes --since 7d -o json | jq length",
      "pep changes --since 7d --exit-status -q  # exit 10: there are changes",
      "pep changes --from 2026-03-01 --resource studies  # what moved since that day",
      "pep changes --prune 12w  # keep twelve weeks of the change log",
    ],
  },
];
