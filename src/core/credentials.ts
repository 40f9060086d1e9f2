/**
 * Credentials in a URL are never printed: `http://alice:S3cret@proxy:3128` (a proxy given
 * with `--proxy`) shows as `http://alice:***@proxy:3128`; a user part with no password
 * (which may be a token) shows as `***@`. Works on any text, a URL anywhere in it.
 */
const USERINFO = /([a-z][a-z0-9+.-]*:\/\/)([^/?#@\s]*@)+/gi;

export function hideUrlCredentials(text: string): string {
  return text.replace(USERINFO, (all: string, scheme: string) => {
    // Up to the last `@` before the host, as URL parsers read it: a password may hold `@`.
    const info = all.slice(scheme.length, -1);
    const colon = info.indexOf(":");
    return colon === -1 ? `${scheme}***@` : `${scheme}${info.slice(0, colon)}:***@`;
  });
}

/** Whether `text` holds a URL with a user or password in it. */
export function hasUrlCredentials(text: string): boolean {
  return hideUrlCredentials(text) !== text;
}
