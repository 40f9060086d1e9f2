/** Prints the completion script of the shell asked for, built from the command definitions. */
import { SHELLS, completionScript, type Shell } from "../../docs/completion.js";
import { docSources } from "../registry.js";
import { UsageError } from "../../core/errors.js";
import type { CommandInput, Result } from "../../core/command.js";

export async function run(input: CommandInput): Promise<Result> {
  const shell = input.args[0];
  if (!shell || !(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(`<shell> must be one of: ${SHELLS.join(", ")}${shell ? ` (got "${shell}")` : ""}`);
  }
  return { kind: "text", text: completionScript(shell as Shell, docSources(__PEP_VERSION__)) };
}
