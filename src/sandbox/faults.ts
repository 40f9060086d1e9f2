/**
 * Injected faults: a fixed delay before every response and a share of random 503s drawn
 * from a seeded generator, so a run with the same seed fails on the same requests.
 */
import { mulberry32, streamSeed } from "./data/prng.js";

export interface Faults {
  /** True when this request should be answered with 503 `service_unavailable`. */
  shouldFail(): boolean;
}

export function createFaults(seed: number, failRate = 0): Faults {
  if (!(failRate >= 0 && failRate <= 1)) throw new RangeError("failRate must be from 0 to 1");
  const next = mulberry32(streamSeed(seed, "faults"));
  return { shouldFail: () => failRate > 0 && next() < failRate };
}
