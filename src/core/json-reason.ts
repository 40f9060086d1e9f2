/**
 * Why `JSON.parse` failed, without V8's excerpt of the text (`Unexpected token 's',
 * "sk_live_ab"... is not valid JSON`): the text may be a config file or an answer that
 * holds the key, and a part of a key is still a secret.
 */
export function jsonErrorReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message
    .replace(/^(Unexpected token) .*? is not valid JSON$/s, "$1")
    .replace(/,? ".*"(\.\.\.)? is not valid JSON$/s, " in the text");
}
