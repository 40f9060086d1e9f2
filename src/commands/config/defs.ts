/** `pep config list|get|set|unset|profiles|path`: the config file's values, per profile (--profile). */
import { CONFIG_KEYS } from "../../config/config-types.js";
import { CONFIG_KEY_HELP } from "../../config/config-values.js";
import type { CommandDef } from "../../core/command.js";
import { PROFILES_OPTIONS } from "./config-options.js";

const KEYS_HELP = `Keys:\n${CONFIG_KEYS.map((k) => `  ${k.padEnd(12)} ${CONFIG_KEY_HELP[k]}`).join("\n")}`;

const KEY_ARG = {
  name: "key",
  description: `one of: ${CONFIG_KEYS.join(", ")}`,
  required: true,
  choices: CONFIG_KEYS,
} as const;

const PROFILES =
  "Values belong to a profile: `default`, or the one named by --profile or PEP_PROFILE. A profile other than default must exist (`pep config profiles` lists them; `config set` and `auth login` make one). Flags and environment variables override them for one run.";

export const defs: CommandDef[] = [
  {
    path: ["config", "list"],
    isDefault: true,
    summary: "Show the profile's stored values, and the defaults in effect for the rest",
    description: `${PROFILES}\nThe keys left unset are listed under "defaults" with the value a run uses.\nThe API key is never printed: only its fingerprint, such as …abcd.`,
    offline: true,
    examples: ["pep config list", "pep --profile work config list -o json"],
  },
  {
    path: ["config", "get"],
    summary: "Print one value in effect",
    description: `Prints the value on stdout; an unset key prints its default and says on stderr that it is one (a key whose default depends on the run, such as output, prints nothing and says what applies).\n\`pep config get api_key\` prints the key's fingerprint (…abcd), never the key itself.\n\n${KEYS_HELP}`,
    args: [KEY_ARG],
    offline: true,
    examples: ["pep config get base_url", "pep config get api_key   # fingerprint only"],
  },
  {
    path: ["config", "set"],
    summary: "Check a value and store it in the profile",
    description: [
      "A value the key does not accept exits 2 and changes nothing.",
      "The API key is not taken on the command line (it would stay in shell history): use `pep auth login`, or `pep config set api_key -` with the key on stdin.",
      PROFILES,
      "",
      KEYS_HELP,
    ].join("\n"),
    args: [KEY_ARG, { name: "value", description: "the new value (`-` reads the API key from stdin)", required: true }],
    offline: true,
    createsProfile: true,
    examples: [
      "pep config set base_url https://api.example.org/v1",
      "pep config set output json",
      "pep --profile ci config set retries 5",
    ],
  },
  {
    path: ["config", "unset"],
    summary: "Remove a stored value from the profile",
    description: `${PROFILES}\n\n${KEYS_HELP}`,
    args: [KEY_ARG],
    offline: true,
    examples: ["pep config unset timeout", "pep --profile work config unset base_url"],
  },
  {
    path: ["config", "profiles"],
    summary: "List the profiles, or delete one with --delete",
    description: [
      "One row per profile: its name, whether it is the one in use (--profile, PEP_PROFILE, else default), whether it holds an API key (never the key) and its base URL.",
      "`default` is always there, stored or not. A profile is made by `pep --profile <name> config set …` or `pep --profile <name> auth login`; every other command refuses a profile that does not exist (exit 2).",
      "--delete <name> removes the profile and all it holds, its key included, in one atomic write; an unknown name exits 2 and changes nothing.",
    ].join("\n"),
    options: PROFILES_OPTIONS,
    offline: true,
    examples: ["pep config profiles", "pep config profiles -o json", "pep config profiles --delete work"],
  },
  {
    path: ["config", "path"],
    summary: "Print the path of the config file",
    description:
      "$PEP_CONFIG_DIR, else $XDG_CONFIG_HOME/pep, else ~/.config/pep; the file is config.json (mode 0600, folder 0700).",
    offline: true,
    examples: ["pep config path", 'cat "$(pep config path)"'],
  },
];
