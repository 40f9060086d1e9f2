/**
 * A key's fingerprint: the first 4 and last 4 hex digits of its sha256, `3fa1…9c0e`.
 * Unlike the key's ending (`…ab12`, keyEnding) it tells apart keys that end alike, and
 * it shows nothing of the key itself. `auth status` shows it, and the scopes seen of a
 * key are recorded under it. sha256 from @noble/hashes (as the ETag cache's), so that
 * node:crypto is not loaded.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

export function keyDigest(key: string): string {
  const hex = bytesToHex(sha256(utf8ToBytes(key)));
  return `${hex.slice(0, 4)}…${hex.slice(-4)}`;
}
