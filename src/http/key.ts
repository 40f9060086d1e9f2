import { UsageError } from "../core/errors.js";

/**
 * The shortest key pep takes. A shorter value (`dev`, `id`, `test`) is no API key, and a
 * key that short would, once hidden, hide ordinary words of the data that happen to hold it.
 */
export const MIN_KEY_LENGTH = 12;

/** Refuses a value too short to be a key (exit 2), without showing it. */
export function checkKeyLength(key: string, where: string): void {
  if (key.length >= MIN_KEY_LENGTH) return;
  throw new UsageError(
    `${where}: that is not an API key (${key.length} character${key.length === 1 ? "" : "s"}; a key has at least ${MIN_KEY_LENGTH})`,
    { hints: ["check that the whole key was copied; `pep auth login` stores one after checking it"] },
  );
}

/** A letter or digit: a key is hidden only where none stands right next to it. */
const ALNUM = /[A-Za-z0-9]/;

/** The shortest part of a key that, standing alone as a token, counts as showing the key. */
export const KEY_RUN = 8;

/**
 * `text` with the key hidden where it stands as a whole token: a value, a header, a part
 * of a URL (as is or URL-encoded), with no letter or digit right before or after it; and
 * a token that is a piece of the key, 8 characters or more (a key cut short in a message,
 * `req-<part of the key>`). Never inside another word or a field name: with any key,
 * `development_stage` or `id` stay as they are (a value shorter than a key hides nothing).
 * What server-supplied text (a request id,
 * a message, a header echoed in a log) goes through before pep prints it, and what
 * `pep mcp` hides the key with in its results.
 */
export function redactKey(text: string, key: string | undefined, replacement = "<redacted>"): string {
  // A value that short is refused as a key before any request (checkKeyLength); were one
  // to get this far, hiding it would rewrite ordinary words and field names (`id`, `dev`).
  if (!key || text === "" || key.length < MIN_KEY_LENGTH) return text;
  let out = text;
  for (const form of new Set([key, encodeURIComponent(key)])) {
    if (!out.includes(form)) continue;
    let result = "";
    let from = 0;
    for (let at = out.indexOf(form); at !== -1; at = out.indexOf(form, at + 1)) {
      if (at < from) continue;
      const before = at === 0 ? "" : out[at - 1]!;
      const after = out[at + form.length] ?? "";
      if (ALNUM.test(before) || ALNUM.test(after)) continue;
      result += out.slice(from, at) + replacement;
      from = at + form.length;
    }
    out = result + out.slice(from);
  }
  // A piece of the key standing as a token of its own.
  return out.replace(/[A-Za-z0-9_]+/g, (token) =>
    token.length >= KEY_RUN && token !== replacement && key.includes(token) ? replacement : token,
  );
}

/** Whether `text` holds the key as a whole token. */
export function showsKey(text: string, key: string | undefined): boolean {
  return key !== undefined && redactKey(text, key) !== text;
}
