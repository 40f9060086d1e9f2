/** The positional argument that names a record in an endpoint's path (a slug, an id). */
import { LIMITS } from "./enums.js";
import { UsageError } from "../core/errors.js";

/** Checks a positional argument that names a resource (slug, id). */
export function requireArg(value: string | undefined, name: string, max = LIMITS.searchMaxLength): string {
  const v = (value ?? "").trim();
  if (v === "") throw new UsageError(`<${name}> must not be empty`);
  if (v.length > max) throw new UsageError(`<${name}> must be at most ${max} characters`);
  // A path segment of "." or ".." would be resolved away by the URL: `peptides get ..` would fetch the index.
  if (v === "." || v === "..") throw new UsageError(`<${name}> must be an id, name or slug, not "${v}"`);
  return v;
}
