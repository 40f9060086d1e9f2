/** `pep index` and `pep health`: the API's own description and its health. */
import type { CommandDef } from "../../core/command.js";

export const defs: CommandDef[] = [
  {
    path: ["index"],
    summary: "Show the API index: version, documentation links and endpoints",
    description:
      "The card labels the index's fields in words; -o json and --jq see them by name: name, api_version, openapi_version, documentation_url, base_url, sandbox, notice, and endpoints, each with path, method, scope, key_required, metered and paginated. Fields the API adds are shown too.",
    calls: "index",
    examples: ["pep index", "pep index -o json | jq -r .api_version", "pep index --jq '.endpoints[].path' --jq-raw"],
  },
  {
    path: ["health"],
    summary: "Check whether the API can read its data",
    description:
      "Exits 0 when the API is healthy and 6 when it reports its database unavailable (HTTP 503). With -q it prints nothing: the exit status is the answer.",
    calls: "health",
    probe: true,
    examples: ["pep health", "pep health -q && echo up"],
  },
];
