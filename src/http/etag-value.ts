/**
 * Whether a stored ETag can go back out as an `If-None-Match` header: one or more visible
 * latin1 characters, spaces and tabs only between them (RFC 9110 field-value). A cache
 * entry edited by hand, or garbled on disk, may hold a CR, LF or NUL that undici refuses
 * (every later run would fail) or that would split the header; such an entry is no entry.
 */
export function isSendableEtag(etag: string): boolean {
  return /^[\x21-\x7e\x80-\xff](?:[\x20-\x7e\x80-\xff\t]*[\x21-\x7e\x80-\xff])?$/.test(etag);
}
