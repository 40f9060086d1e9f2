/**
 * Which output format a run writes (`-o`, a `--file` name's ending, `PEP_OUTPUT`, the
 * command's default, the profile, the terminal), and whether failures are told as JSON
 * because the user asked for JSON.
 */
import { CITATION_FORMATS, OUTPUT_FORMATS, type OutputFormat } from "../api/enums.js";
import type { GlobalOptions } from "./run-context.js";
import type { CommandDef } from "../core/command.js";
import { UsageError } from "../core/errors.js";
import { closest } from "../core/suggest.js";
import type { IO } from "../core/io.js";
import { FILE_ENDINGS, formatOfFileName } from "../output/file-format.js";

/**
 * The output format: `-o`, else a `--file` name's ending, else `PEP_OUTPUT`, the
 * command's own default or the profile's, else a table on a terminal and JSON
 * otherwise. A `--file` never gets a table unless `-o table` asks for one. `warning` is
 * for an `-o` that the file's name contradicts (allowed, said once).
 */
export async function chooseFormat(
  def: CommandDef,
  globals: GlobalOptions,
  io: IO,
  fromConfig: () => Promise<OutputFormat | undefined>,
): Promise<{ format: OutputFormat; warning?: string; explicit?: boolean }> {
  const allowed: readonly string[] = [...OUTPUT_FORMATS, ...(def.extraFormats ?? [])];
  const check = (value: string, where: string): OutputFormat => {
    const v = formatWord(value);
    if (allowed.includes(v)) return v as OutputFormat;
    const citation = (CITATION_FORMATS as readonly string[]).includes(v);
    if (citation)
      throw new UsageError(
        `${where} ${v} is only for study commands (studies list|get|export, peptides studies); this command accepts: ${allowed.join(", ")}`,
      );
    const best = closest(v, allowed);
    throw new UsageError(`${where} must be one of: ${allowed.join(", ")} (got "${value}")`, {
      hints: best ? [`Did you mean \`${best}\`?`] : [],
    });
  };
  const file = globals.file;
  const output = globals.output === undefined ? undefined : formatWord(globals.output);
  const byName = file === undefined ? undefined : formatOfFileName(file);
  if (globals.jq !== undefined) {
    // jq reads and writes JSON: -o json (the whole document) or ndjson (item by item).
    const chosen = output ?? byName ?? "json";
    if (chosen !== "json" && chosen !== "ndjson")
      throw new UsageError(
        `--jq filters JSON output: use it with -o json or -o ndjson (got ${globals.output !== undefined ? `-o ${chosen}` : `--file ${file}`})`,
      );
    // `-o json --jq …` asked for JSON: its failures are JSON objects too.
    return { format: chosen, explicit: globals.output !== undefined };
  }
  if (globals.jqRaw === true) throw new UsageError("--jq-raw goes with --jq <expr>");
  if (globals.slurp === true) throw new UsageError("--slurp goes with --jq <expr>: the whole list as one array for jq");
  if (globals.output !== undefined) {
    const format = check(globals.output, "--output");
    if (byName === undefined || byName === format) return { format, explicit: true };
    return {
      format,
      explicit: true,
      warning: `warning: writing ${format} to ${file}, whose name says ${byName} (-o decides)`,
    };
  }
  if (byName !== undefined) {
    if (allowed.includes(byName)) return { format: byName };
    throw unwritableName(def, file!, byName, allowed);
  }
  if (file !== undefined && !isDevice(file))
    throw new UsageError(`--file ${file}: pep does not know what to write to a file named so`, {
      hints: [`Name it with one of ${FILE_ENDINGS.join(" ")}, or say what to write with -o (${allowed.join(", ")}).`],
    });
  const machine = (f: OutputFormat): OutputFormat =>
    file !== undefined && f === "table" ? (def.defaultFormat ?? "json") : f;
  // A default from the environment or the profile that this command cannot print (a
  // citation format on a command that is not about studies) falls back rather than failing.
  const fromEnv = io.env.PEP_OUTPUT === undefined ? undefined : formatWord(io.env.PEP_OUTPUT);
  if (fromEnv && (allowed.includes(fromEnv) || !(CITATION_FORMATS as readonly string[]).includes(fromEnv)))
    return { format: machine(check(io.env.PEP_OUTPUT!, "PEP_OUTPUT")), explicit: true };
  if (def.defaultFormat) return { format: def.defaultFormat };
  const configured = await fromConfig();
  if (configured && allowed.includes(configured)) return { format: machine(configured), explicit: true };
  return { format: io.stdoutIsTTY && file === undefined ? "table" : "json" };
}

/** `-o JSON`, `PEP_OUTPUT=Csv`: a format is named without regard to case. */
export function formatWord(value: string): string {
  return value.trim().toLowerCase();
}

const FORMAT_NAMES: Partial<Record<OutputFormat, string>> = { bibtex: "BibTeX", ris: "RIS", "csl-json": "CSL-JSON" };

/**
 * A `--file` whose ending asks for a format the command does not write (`peptides list
 * --file refs.bib`): what it can write to a file, the endings that fit, and, for a
 * citation ending, which commands write citations.
 */
function unwritableName(def: CommandDef, file: string, asked: OutputFormat, allowed: readonly string[]): UsageError {
  const command = `pep ${def.path.join(" ")}`;
  // A file never gets a table unless -o asks for one: not worth offering.
  const writes = allowed.filter((f) => f !== "table");
  const endings = FILE_ENDINGS.filter((e) => writes.includes(formatOfFileName(e) ?? ""));
  const hints = [`name the file ${endings.join(" ")}, or choose the format with -o (${writes.join(", ")})`];
  if ((CITATION_FORMATS as readonly string[]).includes(asked))
    hints.push(
      "citations (BibTeX, RIS, CSL-JSON) come from the study commands: `pep peptides studies <slug> --file refs.bib`, `pep studies list|get|export --file refs.bib`",
    );
  return new UsageError(
    `--file ${file}: the name asks for ${FORMAT_NAMES[asked] ?? asked}, which ${command} does not write; to a file it writes ${writes.join(", ")}`,
    { hints },
  );
}

/** A device or descriptor (`/dev/null`, `/dev/stdout`): written in place, its name says nothing. */
function isDevice(file: string): boolean {
  return /^\/(dev|proc\/self\/fd)\//.test(file.trim());
}

/** Whether failures are told as JSON before the format is settled: `-o`, else PEP_OUTPUT. */
export function explicitMachine(output: string | undefined, env: IO["env"]): boolean {
  const given = output ?? env.PEP_OUTPUT;
  const f = given === undefined ? undefined : formatWord(given);
  return f === "json" || f === "ndjson";
}

/** `-o <f>`, `-o<f>`, `--output <f>` or `--output=<f>` in words commander could not parse. */
export function outputWord(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === "--") break;
    if (w === "-o" || w === "--output") found = argv[++i];
    else if (w.startsWith("--output=")) found = w.slice("--output=".length);
    else if (/^-o[^-]/.test(w)) found = w.slice(2);
  }
  return found;
}
