/**
 * A Node built-in loaded where it is first used rather than when the module that uses
 * it loads: for built-ins a run often does without (node:zlib when an answer comes
 * uncompressed or from the cache). process.getBuiltinModule where Node has it (20.16,
 * 22.3 and later), createRequire before.
 */
import { createRequire } from "node:module";

type GetBuiltin = (id: string) => unknown;

export function builtin<T>(id: `node:${string}`): T {
  const get = (process as { getBuiltinModule?: GetBuiltin }).getBuiltinModule;
  return (typeof get === "function" ? get(id) : createRequire(import.meta.url)(id)) as T;
}
