/**
 * Scopes the API refused a key (HTTP 403 on an endpoint that needs the scope), kept by
 * the key's sha256 (never the key) in `mcp-scopes.json` of pep's cache folder, so that
 * `pep mcp` lists only the tools a key can use from its next start, whatever gives the
 * key (the profile, PEP_API_KEY in a client's `env`, a key file). It is state that may be
 * lost: without the file pep learns again from the next 403. A refusal is trusted for a
 * week (a key's scopes can be widened); the newest keys are kept, at most MAX_KEYS.
 */
import path from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { makeDirs } from "../core/dirs.js";
import { readTrusted, writeTrusted } from "../core/trusted-file.js";
import { cacheDir } from "./locations.js";

type Env = Record<string, string | undefined>;

export const SCOPES_STATE_FILE = "mcp-scopes.json";
/** How long a refusal is trusted. */
export const REFUSAL_TTL_MS = 7 * 24 * 3600 * 1000;
const MAX_KEYS = 20;

interface Entry {
  /** Scope -> when it was refused (ISO time). */
  refused: Record<string, string>;
}
type State = Record<string, Entry>;

/** The digest a key is kept under: its whole sha256, in hex. */
const digestOf = (key: string) => bytesToHex(sha256(utf8ToBytes(key)));

export const scopesStatePath = (env: Env) => path.join(cacheDir(env), SCOPES_STATE_FILE);

/**
 * What is known, read only from a file that is trusted like the config (a plain file of
 * this user's, not writable by others, never through a link): another user's planted file
 * could otherwise hide tools. A file that is not trusted counts as nothing known.
 */
function read(file: string): State {
  try {
    const got = readTrusted(file);
    if (got === undefined || "why" in got) return {};
    const parsed = JSON.parse(got.text) as { keys?: unknown };
    return parsed && typeof parsed.keys === "object" && parsed.keys !== null ? (parsed.keys as State) : {};
  } catch {
    return {}; // none yet, or unreadable: nothing is known
  }
}

/** The scopes `key` was refused within the last week, each with when. */
export function refusedScopes(env: Env, key: string, now: number): Array<{ scope: string; at: string }> {
  const entry = read(scopesStatePath(env))[digestOf(key)];
  return Object.entries(entry?.refused ?? {})
    .filter(([, at]) => now - Date.parse(at) < REFUSAL_TTL_MS)
    .map(([scope, at]) => ({ scope, at }));
}

/** Records that `key` was refused `scope`; written whole and atomically (mode 0600). */
export async function noteRefused(env: Env, key: string, scope: string, now: number): Promise<void> {
  const file = scopesStatePath(env);
  const state = read(file);
  const digest = digestOf(key);
  const entry = state[digest] ?? { refused: {} };
  entry.refused[scope] = new Date(now).toISOString();
  delete state[digest];
  state[digest] = entry; // newest last
  const keys = Object.keys(state);
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_KEYS))) delete state[old];
  makeDirs(path.dirname(file), 0o700);
  writeTrusted(file, `${JSON.stringify({ keys: state }, null, 2)}\n`);
}
