/**
 * What pep has seen of a key's scopes, kept in its profile under the key's fingerprint
 * (core/key-display.ts): a scope a keyed endpoint granted (a success) or refused (a 403).
 * The API names no endpoint that lists a key's scopes; `auth status` and `pep mcp` tell
 * these. Not a secret: the fingerprint shows nothing of the key.
 */

/** What pep has seen of a key's scopes: granted by a success, refused by a 403. Not a secret. */
export interface ScopesSeen {
  granted: string[];
  refused: string[];
}

/** The profile field that holds ScopesSeen per key fingerprint (ignored as a config value). */
export const SCOPES_FIELD = "scopes_seen";

/** Keys whose scopes a profile remembers, newest last; older ones are dropped. */
const SCOPE_KEYS_KEPT = 8;

function scopeList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").sort() : [];
}

export function readScopes(profile: Record<string, unknown> | undefined, fingerprint: string): ScopesSeen {
  const all = profile?.[SCOPES_FIELD];
  const entry =
    all && typeof all === "object" && !Array.isArray(all) && Object.hasOwn(all, fingerprint)
      ? (all as Record<string, unknown>)[fingerprint]
      : undefined;
  if (!entry || typeof entry !== "object") return { granted: [], refused: [] };
  const e = entry as Record<string, unknown>;
  return { granted: scopeList(e.granted), refused: scopeList(e.refused) };
}

/**
 * Adds what a run saw of a key's scopes (by its fingerprint) to a stored profile; false
 * when that changes nothing. The newest fingerprints are kept, SCOPE_KEYS_KEPT of them.
 */
export function mergeScopes(
  current: Record<string, unknown>,
  fingerprint: string,
  outcomes: ReadonlyMap<string, "granted" | "refused">,
): boolean {
  const before = readScopes(current, fingerprint);
  const granted = new Set(before.granted);
  const refused = new Set(before.refused);
  for (const [scope, outcome] of outcomes) {
    (outcome === "granted" ? granted : refused).add(scope);
    (outcome === "granted" ? refused : granted).delete(scope);
  }
  const after = { granted: [...granted].sort(), refused: [...refused].sort() };
  if (JSON.stringify(after) === JSON.stringify(before)) return false;
  const old = current[SCOPES_FIELD];
  const all: Record<string, unknown> =
    old && typeof old === "object" && !Array.isArray(old) ? { ...(old as Record<string, unknown>) } : {};
  delete all[fingerprint]; // re-added last: the newest key is kept longest
  Object.defineProperty(all, fingerprint, { value: after, enumerable: true, writable: true, configurable: true });
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - SCOPE_KEYS_KEPT))) delete all[k];
  current[SCOPES_FIELD] = all;
  return true;
}
