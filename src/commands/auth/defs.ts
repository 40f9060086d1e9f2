/** `pep auth login|status|logout`: store, check and remove the API key of a profile. */
import type { CommandDef } from "../../core/command.js";
import { LOGIN_OPTIONS } from "./auth-options.js";

export const defs: CommandDef[] = [
  {
    path: ["auth", "login"],
    summary: "Check an API key with the API and store it in the profile",
    description: [
      "Asks for the key on the terminal without echoing it, or reads it from stdin with --with-key (or from --api-key-file).",
      "A base URL is needed first (--base-url, PEP_BASE_URL or the profile's base_url): without one it exits 2 before asking for or reading the key.",
      "The key is checked with GET / first: a refused key (exit 3) or an unreachable API (exit 6) stores nothing.",
      "It is stored in the profile's config file (mode 0600, folder 0700; `pep config path` prints where), together with the base URL when --base-url gives one; only its last 4 characters and its fingerprint are ever shown.",
      "The profile is made when it does not exist yet. PEP_API_KEY and --api-key-file, when given, take precedence over the stored key.",
    ].join("\n"),
    options: LOGIN_OPTIONS,
    createsProfile: true,
    needsBaseUrl: true,
    examples: [
      "pep auth login                               # prompts, input hidden",
      "pep auth login --base-url https://api.example.org/v1 --with-key < ~/.secrets/pep-key",
      "pep --profile work auth login --with-key < key.txt",
    ],
  },
  {
    path: ["auth", "status"],
    summary: "Show the profile, base URL and key in use, and whether the API accepts the key",
    description: [
      "Shows where the key comes from (file, stdin, env, config, sandbox), its last 4 characters and its fingerprint (the first and last 4 hex digits of its sha256, which tells apart keys that end alike), then checks it with GET /.",
      "It also shows the scopes the stored key was seen to have: each vendor, product or price command that succeeds records its endpoint's scope in the profile, and a 403 records it as refused (the API has no call that lists a key's scopes).",
      "Exits 3 when there is no key or the API refuses it. `-o json` prints the status as JSON.",
    ].join("\n"),
    calls: "index",
    examples: ["pep auth status", "pep auth status -o json", "PEP_API_KEY=... pep auth status"],
  },
  {
    path: ["auth", "logout"],
    summary: "Remove the stored API key from the profile",
    description: "Removes only the stored key; a key in PEP_API_KEY or --api-key-file is not affected.",
    offline: true,
    examples: ["pep auth logout", "pep --profile work auth logout"],
  },
];
