/** `pep completion <shell>`: prints a completion script for bash, zsh or fish. */
import type { CommandDef } from "../../core/command.js";

export const defs: CommandDef[] = [
  {
    path: ["completion"],
    summary: "Print a shell completion script for bash, zsh or fish",
    description:
      "The script completes commands, subcommands, aliases and flags, and the allowed values of flags such as `--category`, `--evidence-level`, `--sort` and `-o`.\n\nbash: `source <(pep completion bash)` in ~/.bashrc, or save it as ~/.local/share/bash-completion/completions/pep.\nzsh: `source <(pep completion zsh)` in ~/.zshrc after compinit, or save it as `_pep` in a folder of $fpath.\nfish: `pep completion fish > ~/.config/fish/completions/pep.fish`.",
    args: [
      {
        name: "shell",
        description: "the shell to complete for: bash, zsh or fish",
        required: true,
        choices: ["bash", "zsh", "fish"],
      },
    ],
    offline: true,
    examples: [
      "source <(pep completion bash)  # in ~/.bashrc",
      'pep completion zsh > "${fpath[1]}/_pep"',
      "pep completion fish > ~/.config/fish/completions/pep.fish",
    ],
  },
];
