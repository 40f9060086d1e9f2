/**
 * The one function that masks credentials in a URL before pep prints or stores it
 * (errors, `-v`, summaries, the command to continue, `pep config list|get`, manifests,
 * `pep mcp` messages, a library's own record of where it was filled from). Works on any
 * text, a URL anywhere in it, parsed or not:
 *   - a password in the user part: `postgres://pep:s3cret@db/lib` shows as
 *     `postgres://pep:***@db/lib`, also when the password holds an unencoded `@`, `/`,
 *     `?` or `#` (the user part runs to the last `@`, so no piece of it shows);
 *   - the user name stays as it is, so a printed command still connects as that user;
 *   - a credential in the query: `password` and `sslpassword` (what PostgreSQL's libpq
 *     and node-postgres take in a URL), and the names under which an API key would
 *     travel (`api_key`, `key`, `token`, `access_token`, `secret`…), in any case and
 *     URL-encoded: `?password=***`.
 */

/** Names under which a password or an API key would travel in a URL's query. */
const SECRET_NAMES =
  /^(api[_-]?key|apikey|key|token|access[_-]?token|auth[_-]?token|secret|password|sslpassword|passwd|pass)$/i;

/** Whether a query parameter named `name` carries a secret. */
export function isSecretParam(name: string): boolean {
  return SECRET_NAMES.test(name);
}

/** libpq's keywords that carry a password, in its `keyword=value` form. */
const LIBPQ_SECRETS = /^(password|sslpassword)$/i;

/** What a secret is shown as. */
export const MASK = "***";

// A URL's scheme, then what may be its user part: everything up to the last `@` before a
// space. An unencoded `@`, `/`, `?` or `#` in a password is part of it (such a URL does
// not parse, and is still masked); a `/`, `?` or `#` in the user name says it is not one.
const USERINFO = /([a-z][a-z0-9+.-]*:\/\/)([^\s@]*(?:@[^\s@]*)*)@/gi;
// `?name=value`, `&name=value` and libpq's keyword form (`password=x` after a space).
const PARAM = /([?&;]|^|\s)([^=&#;\s?]+)=([^&#;\s]*)/g;

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

/** `text` with every password and credential parameter of a URL in it masked. */
export function hideUrlCredentials(text: string): string {
  const users = text.replace(USERINFO, (all: string, scheme: string, info: string) => {
    const colon = info.indexOf(":");
    if (colon === -1 || colon === info.length - 1 || /[/?#]/.test(info.slice(0, colon))) return all;
    return `${scheme}${info.slice(0, colon)}:${MASK}@`;
  });
  return users.replace(PARAM, (all: string, lead: string, name: string, value: string) => {
    const decoded = safeDecode(name);
    // Outside a query (libpq's keyword form, after a space) only a password is one: a
    // message's `key=value` names the form of a value, not a key.
    const secret = /^[?&;]$/.test(lead) ? isSecretParam(decoded) : LIBPQ_SECRETS.test(decoded);
    return value !== "" && secret ? `${lead}${name}=${MASK}` : all;
  });
}

/** Whether `text` holds a credential that `hideUrlCredentials` masks. */
export function hasUrlCredentials(text: string): boolean {
  return hideUrlCredentials(text) !== text;
}
