/**
 * How `auth status`, `config list|get`, `auth login` and auth hints show a key: `…abcd`
 * (`****` for a short key; see keyTail). Named apart from the `-v` log's redaction,
 * `keyFingerprint` in http/key.ts (`****abcd`), which replaces the key inside a header.
 */
import { keyTail } from "../http/key.js";

export function keyEnding(key: string): string {
  const tail = keyTail(key);
  return tail ? `…${tail}` : "****";
}
