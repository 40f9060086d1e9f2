/** `pep sandbox`: the whole API from synthetic data, in the foreground. */
import type { CommandDef } from "../types.js";

export const defs: CommandDef[] = [
  {
    path: ["sandbox"],
    summary: "Serve the whole API locally from deterministic synthetic data",
    description:
      "Starts a local server that answers every endpoint of the API from a synthetic data set, with opaque cursors, " +
      "ETags, RateLimit headers, scopes and the error envelope, so scripts can be tried with no key and no network. " +
      "It prints its base URL and its sample keys (sbx_full_key: every scope; sbx_research_key: research:read and " +
      "studies:read; sbx_vendors_key: vendors:read), then serves until Ctrl-C. The data is synthetic and must never " +
      "pass for real research: every response carries meta.sandbox = true.",
    offline: true,
    options: [
      { flags: "--port <port>", description: "port to listen on, 0 for any free port", default: 4010 },
      { flags: "--host <host>", description: "address to listen on", default: "127.0.0.1" },
      { flags: "--seed <n>", description: "seed of the synthetic data set", default: 1 },
      { flags: "--scale <n>", description: "multiply the data set (1 = about 40 peptides, 300 studies, 25 vendors, 200 offers)", default: 1 },
      { flags: "--rate-limit <n/seconds>", description: "allow n requests per window of seconds, then answer 429 with Retry-After (e.g. 20/2)" },
      { flags: "--latency <ms>", description: "delay every response by this many milliseconds", default: 0 },
      { flags: "--bandwidth <kB/s>", description: "send every body at most this many kilobytes per second, to try a slow link (0 = no cap)", default: 0 },
      { flags: "--fail-rate <0..1>", description: "answer this fraction of requests with 503", default: 0 },
      { flags: "--db-down", description: "report the database unavailable: /health and data endpoints answer 503" },
    ],
    examples: [
      "pep sandbox --port 4010",
      "pep sandbox --scale 40 --rate-limit 20/2   # thousands of studies, paced",
      "PEP_BASE_URL=http://127.0.0.1:4010/v1 pep peptides list",
    ],
    load: () => import("./serve.js"),
  },
];
