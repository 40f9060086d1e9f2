/**
 * How pep shows an API key: one module, one vocabulary, and nothing else shows a key.
 *
 * - **ending** (`keyEnding`): `…abcd`, how people are told which key is meant: `auth
 *   status`, `auth login`, `config list|get`, auth hints, MCP errors. Its last 4
 *   characters are the only ones of a key ever shown, and none of a key shorter than 8,
 *   where 4 would be half of it or more (`****`).
 * - **masked** (`keyMasked`): `****abcd`, the key replaced where it stood, in the headers
 *   the `-v` log prints: the same last 4 characters, after stars.
 * - **fingerprint** (`keyFingerprint`): `3fa1…9c0e`, the first and last 4 hex digits of
 *   its sha256: tells apart keys that end alike and shows nothing of the key. `auth
 *   status` and `auth login` print it under that name; the scopes seen of a key are
 *   recorded under it.
 *
 * Removing a key from other text (a message, an echoed header) is redaction, not display:
 * `redactKey` in http/key.ts.
 */
// sha256 from @noble/hashes (as the ETag cache's), so that node:crypto is not loaded.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/** The characters of the key that its ending shows: its last 4, none of a short key. */
function shownOf(key: string): string {
  return key.length >= 8 ? key.slice(-4) : "";
}

export function keyEnding(key: string): string {
  const shown = shownOf(key);
  return shown ? `…${shown}` : "****";
}

export function keyMasked(key: string): string {
  return `****${shownOf(key)}`;
}

export function keyFingerprint(key: string): string {
  const hex = bytesToHex(sha256(utf8ToBytes(key)));
  return `${hex.slice(0, 4)}…${hex.slice(-4)}`;
}
