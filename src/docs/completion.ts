/** `completionScript(shell, sources)`: the completion script of one shell, from the definitions. */
import { bashScript } from "./completion-bash.js";
import { completionData } from "./completion-data.js";
import { fishScript } from "./completion-fish.js";
import { zshScript } from "./completion-zsh.js";
import { commandTree, type DocSources } from "./tree.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

export function completionScript(shell: Shell, src: DocSources): string {
  const nodes = completionData(commandTree(src));
  if (shell === "bash") return bashScript(nodes, src.version);
  if (shell === "zsh") return zshScript(nodes, src.version);
  return fishScript(nodes, src.version);
}
