/**
 * The option and help text of the commands that take several ids (src/commands/shared/
 * batch.ts does the work). Kept apart so that the command definitions, which every run
 * loads, do not load the batch code.
 */
import { options } from "../../api/options.js";

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 16;

export const BATCH_OPTIONS = options([
  {
    key: "concurrency",
    long: "concurrency",
    value: "n",
    description: `with several ids: how many to look up at once, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY}; fewer while the rate limit has fewer requests left)`,
  },
]);

/** The limits of the ids a batch takes, for help. */
export const BATCH_HELP = `Several ids, or - to read them from standard input (one a line, # comments), are looked up ${DEFAULT_CONCURRENCY} at a time (--concurrency) and printed in the order given: a JSON array or NDJSON lines, CSV rows, or one card after another. An id that fails is told on stderr and the others go on; the exit code is then the first failed id's. With one id the output is that one item, as before.`;
