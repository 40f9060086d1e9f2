/** Prints the completion script of the shell asked for, built from the command definitions. */
import { SHELLS, completionScript, type Shell } from "../../docs/completion.js";
import { docSources } from "../registry.js";
import { UsageError } from "../../core/errors.js";
import { closest } from "../../core/suggest.js";
import type { CommandInput, Result } from "../../core/command.js";

export async function run(input: CommandInput): Promise<Result> {
  const typed = input.args[0];
  const shell = typed?.trim().toLowerCase();
  if (!shell || !(SHELLS as readonly string[]).includes(shell)) {
    const best = typed ? closest(typed, SHELLS) : undefined;
    throw new UsageError(`<shell> must be one of: ${SHELLS.join(", ")}${typed ? ` (got "${typed}")` : ""}`, {
      hints: best ? [`Did you mean \`${best}\`? (\`pep completion ${best}\`)`] : [],
    });
  }
  return { kind: "text", text: completionScript(shell as Shell, docSources(__PEP_VERSION__)) };
}
