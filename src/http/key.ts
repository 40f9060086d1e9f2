/** The shortest run of a key's characters that counts as showing the key. */
export const KEY_RUN = 8;

/**
 * `text` with every run of 8 or more characters of `key` replaced by `<redacted>`: what
 * server-supplied text (a request id, a message, a header echoed in a log) goes through
 * before pep puts it in anything it prints. A key shorter than 8 is matched whole.
 */
export function redactKey(text: string, key: string | undefined): string {
  if (!key || text === "") return text;
  if (key.length < KEY_RUN) return text.split(key).join("<redacted>");
  const grams = new Set<string>();
  for (let i = 0; i + KEY_RUN <= key.length; i++) grams.add(key.slice(i, i + KEY_RUN));
  const covered = new Uint8Array(text.length);
  let any = false;
  for (let i = 0; i + KEY_RUN <= text.length; i++) {
    if (grams.has(text.slice(i, i + KEY_RUN))) {
      covered.fill(1, i, i + KEY_RUN);
      any = true;
    }
  }
  if (!any) return text;
  let out = "";
  for (let i = 0; i < text.length; ) {
    if (covered[i]) {
      while (i < text.length && covered[i]) i++;
      out += "<redacted>";
    } else out += text[i++];
  }
  return out;
}

/** Whether `text` holds the key or a run of 8 of its characters. */
export function showsKey(text: string, key: string | undefined): boolean {
  return key !== undefined && redactKey(text, key) !== text;
}
