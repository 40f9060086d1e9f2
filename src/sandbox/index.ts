/**
 * The sandbox: the whole API of the spec served on loopback from a deterministic
 * synthetic data set. Used by `pep sandbox`, by the in-process `--sandbox` flag and by
 * tests.
 *
 * Defaults: port 0 (a free port), host 127.0.0.1, seed 1, scale 1. Limits: anonymous
 * 300 requests a minute per IP; sample keys 10,000 a minute and 1,000,000 metered
 * requests a month (so tests and benchmarks are not throttled); `rateLimit` replaces
 * all of these with one fixed window per caller counting every request. `dbDown` makes
 * `/health` and every data endpoint answer 503 `database_unavailable`, while the index
 * `/v1/` still answers so clients can tell "up but degraded" from "down".
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createCursorCodec } from "./cursor.js";
import { buildDataset } from "./data/index.js";
import { createFaults } from "./faults.js";
import { RateLimiter, type LimitPolicy } from "./limits.js";
import { createPipeline } from "./request-pipeline.js";
import { SANDBOX_KEYS } from "./auth.js";

export { SANDBOX_KEYS } from "./auth.js";
export { DEFAULT_LIMITS, type LimitPolicy } from "./limits.js";
export { buildDataset, BASE_COUNTS, type Dataset } from "./data/index.js";
export { DATA_NOW_ISO } from "./data/data-now.js";

export interface SandboxOptions {
  /** Default 0: a free port. `pep sandbox` passes 4010. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Data set seed. Default 1. */
  seed?: number;
  /** Multiplies the data set (scale 100: about 30,000 studies). Default 1. */
  scale?: number;
  /** One fixed window per scope (`--rate-limit 20/2`): metered requests per key, anonymous ones per IP; keyed research requests are not metered. */
  rateLimit?: { requests: number; seconds: number };
  /** Delay before every response, in milliseconds. */
  latencyMs?: number;
  /** Cap on the rate of every body, in kilobytes (1000 bytes) per second; 0 for none. */
  bandwidthKBps?: number;
  /** Share of requests answered 503 `service_unavailable`, from 0 to 1 (seeded, deterministic). */
  failRate?: number;
  /** `/health` and every data endpoint answer 503 `database_unavailable`. */
  dbDown?: boolean;
  /** Clock of the rate-limit windows, in epoch milliseconds. Default Date.now. */
  now?: () => number;
  /** Override the default limits (see DEFAULT_LIMITS). */
  limits?: Partial<LimitPolicy>;
}

export interface Sandbox {
  /** Ends in `/v1`, e.g. http://127.0.0.1:4010/v1 */
  baseUrl: string;
  port: number;
  keys: typeof SANDBOX_KEYS;
  /** Requests received so far (any path, any outcome). */
  requestCount(): number;
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? 1;
  const scale = options.scale ?? 1;
  const host = options.host ?? "127.0.0.1";
  if (!Number.isInteger(seed)) throw new RangeError("seed must be a whole number");
  const latencyMs = options.latencyMs ?? 0;
  if (!(latencyMs >= 0)) throw new RangeError("latencyMs must be 0 or more");

  const data = buildDataset(seed, scale);
  const limiter = new RateLimiter(options.now ?? Date.now, { rateLimit: options.rateLimit, limits: options.limits });
  const faults = createFaults(seed, options.failRate ?? 0);
  const timers = new Set<{ timer: NodeJS.Timeout; resolve: (ok: boolean) => void }>();
  let count = 0;
  let baseUrl = "";
  let closing = false;

  const server: Server = createServer(
    createPipeline({
      data,
      limiter,
      faults,
      cursors: createCursorCodec(seed),
      latencyMs,
      bytesPerSecond: (options.bandwidthKBps ?? 0) * 1000,
      dbDown: options.dbDown ?? false,
      baseUrl: () => baseUrl,
      onRequest: () => {
        count++;
      },
      delay: (ms) =>
        new Promise<boolean>((resolve) => {
          if (closing) return resolve(false);
          const entry = {
            resolve,
            timer: setTimeout(() => {
              timers.delete(entry);
              resolve(true);
            }, ms),
          };
          timers.add(entry);
        }),
    }),
  );

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${urlHost(host)}:${port}/v1`;

  return {
    baseUrl,
    port,
    keys: SANDBOX_KEYS,
    requestCount: () => count,
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing = true;
        for (const t of timers) {
          clearTimeout(t.timer);
          t.resolve(false);
        }
        timers.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
