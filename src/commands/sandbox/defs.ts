/** `pep sandbox`: the whole API from synthetic data, in the foreground. */
import type { CommandDef } from "../../core/command.js";
import { SANDBOX_OPTIONS } from "./sandbox-options.js";

export const defs: CommandDef[] = [
  {
    path: ["sandbox"],
    summary: "Serve the whole API locally from deterministic synthetic data",
    description:
      "Starts a local server that answers every endpoint of the API from a synthetic data set, with opaque cursors, " +
      "ETags, RateLimit headers, scopes and the error envelope, so scripts can be tried with no key and no network. " +
      "It prints its base URL and its sample keys (sbx_full_key: every scope; sbx_research_key: research:read and " +
      "studies:read; sbx_vendors_key: vendors:read), then serves until Ctrl-C. The data is synthetic and must never " +
      "pass for real research: every response carries meta.sandbox = true, and pep, pointed at the server, prints a " +
      "synthetic-data notice on stderr once a run.",
    offline: true,
    options: SANDBOX_OPTIONS,
    examples: [
      "pep sandbox --port 4010",
      "pep sandbox --scale 40 --rate-limit 20/2   # thousands of studies, paced",
      "PEP_BASE_URL=http://127.0.0.1:4010/v1 pep peptides list",
    ],
  },
];
