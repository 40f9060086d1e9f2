/**
 * What stderr says after a list was cut short by an error
 * (docs/cli.md#lists-and-pagination): the command that continues the run from the cursor
 * of the page that failed, asking only for what is left of a `--limit`. `pep api
 * --paginate` takes its cursor as `-F cursor=<c>`. With `--file` nothing of the run was
 * kept (the target is never half-written): stderr says to run it again.
 */
import { hasUrlCredentials, hideUrlCredentials } from "../core/credentials.js";
import { PepError, resumeCursorOf, resumeRemainingOf } from "../core/errors.js";
import { shellQuote } from "../output/shell-quote.js";

export interface RunFacts {
  /** The command's path (`["studies", "list"]`). */
  command?: readonly string[] | undefined;
  /** `--file` as given. */
  file?: string | undefined;
  /** What a cut-short `--file` export kept, to be finished by the same command. */
  partial?: { path: string; items: number } | undefined;
  /**
   * The run answered from the library. Its cursors are the library's, so a command
   * printed to continue it says `--offline` even when PEP_OFFLINE or the profile chose it.
   */
  offline?: boolean | undefined;
}

/** How to finish a run cut short: the command to run, and what to say around it. */
export interface Resume {
  /** The command that continues the run (`--cursor <c>`), when there is one to offer. */
  command?: string | undefined;
  /** Advice lines, without a `hint:` prefix, said instead of the bare command. */
  hints: string[];
  /** Advice said under the command (or the hints), without a `hint:` prefix. */
  notes?: string[];
}

/** The words of the run: what a resume command repeats, and the `--cursor` it was given. */
export interface RunWords {
  readonly argv: readonly string[];
  readonly cursorGiven: string | undefined;
}

/**
 * How to finish a list cut short by `err` (nothing when it did not cut one short). With
 * `--file` the target was left as it was and nothing of the run was kept, so the same
 * command again fetches the whole list. A cursor the user gave that the API refused (a
 * 400 on the first page) is not offered back.
 */
export function resumeOf(err: unknown, words: RunWords, run: RunFacts = {}): Resume {
  // A command that keeps its own place (pep sync): the same words again, never a --cursor.
  if (err instanceof PepError && err.rerun)
    return { command: resumeCommand(words.argv, undefined, { offline: run.offline }), hints: [] };
  const cursor = resumeCursorOf(err);
  if (!cursor) return { hints: [] };
  if (cursor === words.cursorGiven && statusOf(err) === 400) {
    return {
      hints: [
        `the API did not accept --cursor=${shellQuote(cursor)}: a cursor is only good for the list that gave it; run the command without --cursor to start from the first page`,
      ],
    };
  }
  if (run.file !== undefined && run.partial !== undefined) {
    const n = run.partial.items;
    return {
      command: resumeCommand(words.argv, undefined, { offline: run.offline }),
      hints: [
        `${shellQuote(run.file)} was left as it was; the ${n} item${n === 1 ? "" : "s"} fetched so far are kept in ${shellQuote(run.partial.path)}`,
        "run the same command again to fetch the rest and put the whole file in place (--restart starts over)",
      ],
    };
  }
  if (run.file !== undefined)
    return {
      hints: [`${shellQuote(run.file)} was left as it was; run the same command again to fetch the whole list`],
    };
  const options = { remaining: resumeRemainingOf(err), viaField: run.command?.[0] === "api", offline: run.offline };
  // A password in the command line (`--proxy http://user:pass@host`, a `--db` URL) is
  // never printed: the command shows it as ***, and a note says to put it back.
  const hidden = words.argv.some(hasUrlCredentials)
    ? [
        "the password in that command is shown as ***: put it back before running it, or keep it off the command line (a proxy in HTTPS_PROXY or HTTP_PROXY, a database's in ~/.pgpass)",
      ]
    : [];
  return { command: resumeCommand(words.argv, cursor, options), hints: [], notes: hidden };
}

/** The lines to print under the error line; none when the error did not cut a list short. */
export function resumeLines(err: unknown, words: RunWords, run: RunFacts = {}): string[] {
  const r = resumeOf(err, words, run);
  const notes = (r.notes ?? []).map((h) => `hint: ${h}`);
  if (r.hints.length > 0) return [...r.hints.map((h) => `hint: ${h}`), ...notes];
  return r.command ? [`to resume: ${r.command}`, ...notes] : [];
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/**
 * The command line that continues a run cut short: the same words, `--cursor=<c>`
 * (or `-F cursor=<c>`), and `--limit <remaining>` when a limit was in force. An offline
 * run's command starts `pep --offline` unless its words say `--offline` already.
 */
export function resumeCommand(
  argv: readonly string[],
  cursor: string | undefined,
  options: {
    remaining?: number | undefined;
    viaField?: boolean;
    offline?: boolean | undefined;
    /** The next page goes to another file (`refs.bib` -> `refs-2.bib`), never over this run's. */
    nextFile?: boolean;
  } = {},
): string {
  const { remaining, viaField = false } = options;
  const words: string[] = [];
  let sawLimit = false;
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === "--") {
      words.push(...argv.slice(i));
      break;
    }
    if (!viaField && w === "--cursor") {
      i++;
      continue;
    }
    if (!viaField && w.startsWith("--cursor=")) continue;
    if (w === "--restart") continue;
    if (viaField) {
      // The old cursor may be in -F cursor=…, -Fcursor=…, --field=cursor=… or the path's query.
      if ((w === "-F" || w === "--field") && isCursorField(argv[i + 1])) {
        i++;
        continue;
      }
      const joined = /^(?:-F|--field=)(.*)$/.exec(w);
      if (joined && isCursorField(joined[1])) continue;
      if (!w.startsWith("-") && /[?&]cursor=/.test(w)) {
        words.push(w.replace(/([?&])cursor=[^&]*(&|$)/, (_m, lead: string, rest: string) => (rest ? lead : "")));
        continue;
      }
    }
    if (options.nextFile && w === "--file" && argv[i + 1] !== undefined && argv[i + 1] !== "-") {
      words.push(w, nextFileName(argv[++i]!));
      continue;
    }
    if (options.nextFile && w.startsWith("--file=") && w !== "--file=-") {
      words.push(`--file=${nextFileName(w.slice("--file=".length))}`);
      continue;
    }
    if (remaining !== undefined && w === "--limit") {
      words.push(w, String(remaining));
      sawLimit = true;
      i++;
      continue;
    }
    if (remaining !== undefined && w.startsWith("--limit=")) {
      words.push(`--limit=${remaining}`);
      sawLimit = true;
      continue;
    }
    words.push(w);
  }
  const tail: string[] = [];
  if (remaining !== undefined && !sawLimit) tail.push("--limit", String(remaining));
  // `--cursor=<c>`: one word, so a cursor that starts with `-` is not read as a flag. No
  // cursor: the same command (a --file export goes on from its partial by itself).
  if (cursor !== undefined) tail.push(...(viaField ? ["-F", `cursor=${cursor}`] : [`--cursor=${cursor}`]));
  const end = words.indexOf("--");
  if (end === -1) words.push(...tail);
  else words.splice(end, 0, ...tail);
  if (options.offline === true && !saysOffline(argv)) words.unshift("--offline");
  return ["pep", ...words].map((w) => shellQuote(hideUrlCredentials(w))).join(" ");
}

/**
 * The file after `name` in a series: `refs.bib` -> `refs-2.bib`, `refs-2.bib` ->
 * `refs-3.bib`, `out.csl.json` -> `out-2.csl.json` (its folder kept), so that following
 * `to continue:` after `--file` writes the next part beside the first, not over it.
 */
export function nextFileName(name: string): string {
  const cut = Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1;
  const dir = name.slice(0, cut);
  const base = name.slice(cut);
  const dot = base.indexOf(".", 1);
  const stem = dot < 0 ? base : base.slice(0, dot);
  const ext = dot < 0 ? "" : base.slice(dot);
  const numbered = /^(.*)-(\d+)$/.exec(stem);
  const next = numbered ? `${numbered[1]}-${Number(numbered[2]) + 1}` : `${stem}-2`;
  return `${dir}${next}${ext}`;
}

/** `--offline` (or `--offline=<v>`) among the options, before any `--`. */
function saysOffline(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some((w) => w === "--offline" || w.startsWith("--offline="));
}

function isCursorField(value: string | undefined): boolean {
  return value !== undefined && /^cursor=/.test(value);
}
