/**
 * What an early start (bin/pep.js runs dist/mcp-early.js or dist/sql-early.js before the
 * program loads) leaves for the program: the two are separate bundles, each with its own
 * copy of the code that shares it, so the value waits on the global object under a
 * registered symbol, and is taken once.
 */
export function leave(key: string, value: unknown): void {
  (globalThis as Record<symbol, unknown>)[Symbol.for(key)] = value;
}

/** What an early start left under `key` in this process, if any (then forgotten). */
export function take<T>(key: string): T | undefined {
  const g = globalThis as Record<symbol, unknown>;
  const value = g[Symbol.for(key)] as T | undefined;
  delete g[Symbol.for(key)];
  return value;
}
