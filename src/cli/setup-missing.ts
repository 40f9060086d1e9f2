/**
 * Failures that say the set-up is missing something (no base URL, no key), before any
 * request. `pep peptides` alone runs `pep peptides list`; when that stops for one of these,
 * the group's help follows the error line, so a newcomer sees what the group offers.
 */
const marked = new WeakSet<object>();

/** `err`, marked as a missing set-up. */
export function setupMissing<E extends Error>(err: E): E {
  marked.add(err);
  return err;
}

export function isSetupMissing(err: unknown): boolean {
  return typeof err === "object" && err !== null && marked.has(err);
}
