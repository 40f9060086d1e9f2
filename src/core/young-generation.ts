/**
 * A long batch's young generation held to a size. V8 grows its new space (where objects
 * are first made) each time as many bytes as it holds have survived collections since it
 * last grew, up to a maximum it takes from the machine's memory: 128 MiB of new space on
 * Node 24 here, where Node 20 stops at 32. A sync keeps a little of each of its thousands
 * of answers alive across a collection, so its new space grew with the size of the API
 * (a whole `pep sync` of the sandbox: 16 MiB at scale 4, 64 MiB at scale 40, most of the
 * difference in peak memory). After each young collection, once the new space has
 * reached `mib`, V8's growth factor is set to 1: it stays that size for the rest of the
 * run, until the returned function puts V8's default (2) back. Measured on a whole sync at
 * scale 40: no more CPU time than when it grew.
 *
 * Put back before the run ends: V8 ties compiled code it saves to the flags of the moment,
 * so code saved at exit (bin/code-cache.js) under the changed flag would be refused by
 * every later run, and compiled again.
 */
import { builtin } from "./builtin.js";

/** The new space pep lets a long batch grow to: what a sync of a small library reaches by itself. */
export const YOUNG_GENERATION_MIB = 16;

export function capYoungGeneration(mib = YOUNG_GENERATION_MIB): () => void {
  const v8 = builtin<typeof import("node:v8")>("node:v8");
  const { PerformanceObserver } = builtin<typeof import("node:perf_hooks")>("node:perf_hooks");
  const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0;
  let capped = false;
  const observer = new PerformanceObserver(() => {
    if (capped || newSpace() < mib * 1024 * 1024) return;
    v8.setFlagsFromString("--semi-space-growth-factor=1");
    capped = true;
    observer.disconnect();
  });
  observer.observe({ entryTypes: ["gc"] });
  return () => {
    observer.disconnect();
    if (capped) v8.setFlagsFromString("--semi-space-growth-factor=2");
    capped = false;
  };
}
