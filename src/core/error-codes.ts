/**
 * Every `error.code` pep itself gives a failure in its JSON error object, with the exit
 * code that goes with it: the one list the README's table is generated from
 * (`npm run error-codes`), so the two cannot drift. An API error keeps the API's own code
 * from its envelope (`not_found`, `rate_limited`, …), or `http_<status>` when it sent none.
 */

export interface ErrorCodeDoc {
  code: string;
  /** The exit code, as the README shows it ("1", "2 or 6"). */
  exit: string;
  when: string;
}

export const ERROR_CODES: readonly ErrorCodeDoc[] = [
  { code: "usage_error", exit: "2", when: "a flag, argument or value pep refuses, before any request" },
  {
    code: "config_error",
    exit: "2",
    when: "the config file or folder cannot be used (unreadable, not yours, corrupt)",
  },
  { code: "auth_error", exit: "3", when: "no key for an endpoint that needs one, before any request" },
  { code: "no_page", exit: "4", when: "the record exists but has no web page to open" },
  { code: "timeout", exit: "6", when: "a request took longer than `--timeout`, after the retries" },
  {
    code: "network_error",
    exit: "6",
    when: "connection refused or reset, DNS, TLS or proxy failure, after the retries",
  },
  { code: "bad_response", exit: "6", when: "an answer that is not the API's JSON (HTML, cut short, wrong shape)" },
  {
    code: "pagination_loop",
    exit: "6",
    when: "the API sent the same cursor twice in one run: a fault of the server's paging, stopped short of an endless loop (not resumable: running again would loop again)",
  },
  {
    code: "output_error",
    exit: "1",
    when: "the output cannot be written for another reason (an I/O error, a file too large)",
  },
  {
    code: "disk_full",
    exit: "1",
    when: "the disk or the quota is full (ENOSPC, EDQUOT); the target is left as it was",
  },
  {
    code: "permission_denied",
    exit: "1",
    when: "the target or its folder cannot be written (EACCES, EPERM, a read-only file system), before any request",
  },
  {
    code: "target_busy",
    exit: "1",
    when: "another pep is writing the same `--file` target (its lock names the process and the lock file), before any request",
  },
  {
    code: "library_stale",
    exit: "6",
    when: "`--max-age`: a resource the answer reads was last synced whole longer ago than that, or never (`pep sync` brings it up to date)",
  },
  {
    code: "interrupted",
    exit: "130, 129, 131, 143",
    when: "ended by SIGINT (Ctrl-C), SIGHUP, SIGQUIT or SIGTERM: 128 + the signal's number",
  },
  {
    code: "library_missing",
    exit: "2",
    when: "no local library where this run looks (`--db`, `PEP_DB`), or one no sync has finished: `pep sync` fills it",
  },
  {
    code: "library_busy",
    exit: "6",
    when: "another pep sync holds the library (with `--no-wait`), or another program holds a write lock on its SQLite file",
  },
  { code: "not_in_library", exit: "4", when: "`--offline`: an id or an answer the library does not hold" },
  {
    code: "library_not_kept",
    exit: "2",
    when: "`--as-of` or `pep changes --from/--to`: a date before the first complete sync, a sync not complete, or data the library did not keep as of then (a resource not synced by then, versions pruned, a detail answer fetched later)",
  },
  {
    code: "library_schema_old",
    exit: "2",
    when: "the library was made by an earlier pep: readers leave it as it is, `pep sync` brings it up to date",
  },
  {
    code: "library_schema_new",
    exit: "2",
    when: "the library was made by a newer pep: upgrade pep, or choose another library",
  },
  {
    code: "library_auth_failed",
    exit: "3",
    when: "the PostgreSQL server refused the library's user or password (not retried)",
  },
  {
    code: "library_db_missing",
    exit: "2",
    when: "the PostgreSQL database (or schema) of `--db` does not exist",
  },
  {
    code: "library_unavailable",
    exit: "6",
    when: "the library's PostgreSQL server cannot be reached, went away, or did not answer within `--timeout` (a sync goes on where it stopped)",
  },
  {
    code: "library_permission_denied",
    exit: "3",
    when: "a grant is missing (the message names the table; readers need CONNECT, USAGE and SELECT) or the SQLite file or its folder cannot be used",
  },
  { code: "unexpected", exit: "1", when: "a bug in pep: please report it with the command you ran" },
  {
    code: "<the API's code>",
    exit: "2 to 6",
    when: "an API error: the code from its envelope (`not_found`, `invalid_parameter`, `rate_limited`, …), exit by status",
  },
  {
    code: "http_<status>",
    exit: "2 to 6",
    when: "an API error whose answer had no envelope code (`http_502`, `http_410`)",
  },
];

/** The README's table of codes (between its `error-codes` markers). */
export function errorCodeTable(): string {
  const rows = ERROR_CODES.map((c) => `| \`${c.code}\` | ${c.exit} | ${c.when} |`);
  return ["| `error.code` | exit | when |", "|---|---|---|", ...rows].join("\n");
}
