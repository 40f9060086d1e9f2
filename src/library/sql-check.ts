/**
 * `pep sql`'s messages: a first word that is not a query's told before the database is
 * opened, and the database's errors told with their place in the query (both exit 2).
 * None of this keeps the library safe: the engine does (library/pg-read.ts,
 * library/sqlite-child.ts), whatever the text; this only says it sooner, in plainer words.
 */
import { PepError, UsageError } from "../core/errors.js";
import type { Dialect } from "./db.js";

const READING = ["select", "with", "values", "explain", "pragma", "table"];

/** `sql` with its comments and quoted text blanked out (same length), so keywords and `;` can be found. */
function code(sql: string): string {
  let out = "";
  for (let i = 0; i < sql.length; ) {
    const c = sql[i]!;
    if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += " ".repeat(stop - i);
      i = stop;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += " ".repeat(stop - i);
      i = stop;
    } else if (c === "'" || c === '"' || c === "`") {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      const stop = Math.min(sql.length, j + 1);
      out += c + " ".repeat(Math.max(0, stop - i - 2)) + (stop - i >= 2 ? c : "");
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Refuses (exit 2) a statement whose first word is not a query's. */
export function checkReadOnly(sql: string): void {
  const bare = code(sql);
  const first = /^\s*([A-Za-z]+)/.exec(bare)?.[1]?.toLowerCase();
  if (first === undefined) throw new UsageError('pep sql needs a query, such as "SELECT COUNT(*) FROM studies"');
  if (!READING.includes(first)) {
    throw new UsageError(
      `pep sql only reads: ${first.toUpperCase()} is refused (it takes SELECT, WITH, VALUES, EXPLAIN or PRAGMA table_info)`,
      { hints: ["the library changes only through pep sync"] },
    );
  }
}

/** "line 2, column 7" of the 0-based offset `at` in `sql` (or "column 7" on a one-line query). */
export function where(sql: string, at: number): string {
  const before = sql.slice(0, at);
  const line = before.split("\n").length;
  const column = at - (before.lastIndexOf("\n") + 1) + 1;
  return sql.includes("\n") ? `line ${line}, column ${column}` : `column ${column}`;
}

/** The offset of the token SQLite's message names (`near "x"`, `no such column: x`), if it can be found. */
function sqliteOffset(sql: string, message: string): number | undefined {
  const named =
    /near "((?:[^"]|"")*)"/.exec(message)?.[1] ??
    /no such (?:column|table|function): ([^\s,]+)/.exec(message)?.[1] ??
    /ambiguous column name: ([^\s,]+)/.exec(message)?.[1];
  if (named === undefined) return /incomplete input/.test(message) ? sql.length : undefined;
  const token = named.replace(/""/g, '"');
  const bare = code(sql).toLowerCase();
  const plain = token.split(".").pop()!.toLowerCase();
  const re = new RegExp(`(^|[^A-Za-z0-9_])(${plain.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")})`, "g");
  const hit = re.exec(bare) ?? re.exec(sql.toLowerCase());
  return hit ? hit.index + hit[1]!.length : undefined;
}

const WRITE =
  /readonly database|query_only|read-only transaction|cannot execute .* in a read-only|not authorized|must not contain data-modifying/i;

/** A database error of `pep sql` as exit 2, with where it is in the query. */
export function sqlError(err: unknown, sql: string, dialect: Dialect): PepError {
  // Told already: a refusal, or the library's own failure (busy, gone, a grant missing).
  if (err instanceof PepError) return err;
  const e = err as { message?: string; position?: string; code?: string };
  const message = String(e.message ?? err).replace(/\s+/g, " ");
  if (WRITE.test(message) || e.code === "25006")
    return new UsageError("pep sql only reads: the statement would write to the library, and was refused");
  if (/cannot insert multiple commands into a prepared statement/.test(message))
    return new UsageError("pep sql takes one statement; the query holds more than one, and nothing was run");
  let at: number | undefined;
  if (dialect === "postgres" && e.position !== undefined) at = Number(e.position) - 1;
  else if (dialect === "sqlite") at = sqliteOffset(sql, message);
  if (at === undefined || !(at >= 0)) return new UsageError(`SQL error: ${message}`);
  const lineStart = sql.lastIndexOf("\n", at - 1) + 1;
  const lineEnd = sql.indexOf("\n", at);
  const text = sql.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  return new UsageError(`SQL error at ${where(sql, at)}: ${message}`, {
    hints: [`${text}\n${" ".repeat(at - lineStart)}^`],
  });
}
