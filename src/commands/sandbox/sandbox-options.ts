/** Checks the sandbox's flags (used by `pep sandbox`); each error names its flag. */
import { UsageError } from "../../core/errors.js";
import { options } from "../../api/options.js";

export interface SandboxFlags {
  port: number;
  host: string;
  seed: number;
  scale: number;
  rateLimit?: { requests: number; seconds: number };
  latencyMs: number;
  bandwidthKBps: number;
  failRate: number;
  dbDown: boolean;
}

function int(value: unknown, flag: string, min: number, max: number): number {
  const s = String(value).trim();
  const n = Number(s);
  if (!/^-?\d+$/.test(s) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${String(value)}")`);
  return n;
}

export function parseRateLimitFlag(value: string): { requests: number; seconds: number } {
  const m = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(value.trim());
  const requests = m ? Number(m[1]) : NaN;
  const seconds = m ? Number(m[2]) : NaN;
  if (!m || requests < 1 || seconds <= 0 || seconds > 86400) {
    throw new UsageError(`--rate-limit must be <requests>/<seconds>, such as 20/2 (got "${value}")`);
  }
  return { requests, seconds };
}

export function parseSandboxFlags(opts: Record<string, unknown>): SandboxFlags {
  const failRate = opts.failRate === undefined ? 0 : Number(String(opts.failRate).trim());
  if (!Number.isFinite(failRate) || failRate < 0 || failRate > 1 || String(opts.failRate ?? "0").trim() === "") {
    throw new UsageError(`--fail-rate must be a number from 0 to 1 (got "${String(opts.failRate)}")`);
  }
  const host = opts.host === undefined ? "127.0.0.1" : String(opts.host).trim();
  if (host === "") throw new UsageError("--host must not be empty");
  return {
    port: opts.port === undefined ? 4010 : int(opts.port, "--port", 0, 65535),
    host,
    seed: opts.seed === undefined ? 1 : int(opts.seed, "--seed", 0, 2 ** 31 - 1),
    scale: opts.scale === undefined ? 1 : int(opts.scale, "--scale", 1, 1000),
    ...(opts.rateLimit === undefined ? {} : { rateLimit: parseRateLimitFlag(String(opts.rateLimit)) }),
    latencyMs: opts.latency === undefined ? 0 : int(opts.latency, "--latency", 0, 600_000),
    bandwidthKBps: opts.bandwidth === undefined ? 0 : int(opts.bandwidth, "--bandwidth", 0, 10_000_000),
    failRate,
    dbDown: opts.dbDown === true,
  };
}

/** Options of `pep sandbox`. */
export const SANDBOX_OPTIONS = options([
  { key: "port", long: "port", value: "port", description: "port to listen on, 0 for any free port", default: 4010 },
  {
    key: "host",
    long: "host",
    value: "host",
    description:
      "address to listen on; beyond loopback (0.0.0.0, ::) other machines reach it and its public keys, and a warning says so",
    default: "127.0.0.1",
  },
  { key: "seed", long: "seed", value: "n", description: "seed of the synthetic data set", default: 1 },
  {
    key: "scale",
    long: "scale",
    value: "n",
    description: "multiply the data set (1 = about 40 peptides, 300 studies, 25 vendors, 200 offers)",
    default: 1,
  },
  {
    key: "rateLimit",
    long: "rate-limit",
    value: "n/seconds",
    description:
      "allow n requests per window of seconds, then answer 429 with Retry-After (e.g. 20/2); as the service scopes its limits: vendor, product and price requests per key, anonymous requests per address, keyed research and study requests not metered",
  },
  {
    key: "latency",
    long: "latency",
    value: "ms",
    description: "delay every response by this many milliseconds",
    default: 0,
  },
  {
    key: "bandwidth",
    long: "bandwidth",
    value: "kB/s",
    description: "send every body at most this many kilobytes per second, to try a slow link (0 = no cap)",
    default: 0,
  },
  {
    key: "failRate",
    long: "fail-rate",
    value: "0..1",
    description: "answer this fraction of requests with 503",
    default: 0,
  },
  {
    key: "dbDown",
    long: "db-down",
    description: "report the database unavailable: /health and data endpoints answer 503",
  },
]);
