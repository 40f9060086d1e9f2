/**
 * API keys and scopes. The sample keys are fixed and public, like any test key. A key
 * that is sent but unknown is refused everywhere (401 `invalid_api_key`), also on the
 * endpoints where a key is optional; keyed endpoints refuse anonymous calls (401
 * `missing_api_key`) and keys lacking the endpoint's scope (403 `insufficient_scope`).
 * On key-optional endpoints a known key is accepted whatever its scopes, because those
 * endpoints are public: the service lists 403 only for the keyed ones
 * (docs/api.md#authentication-and-scopes).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Scope } from "../api/enums.js";
import type { Endpoint } from "../api/endpoints.js";
import { SandboxError } from "./sandbox-error.js";

export const SANDBOX_KEYS = { full: "sbx_full_key", research: "sbx_research_key", vendors: "sbx_vendors_key" } as const;

export const KEY_SCOPES: Readonly<Record<string, readonly Scope[]>> = {
  [SANDBOX_KEYS.full]: ["research:read", "studies:read", "vendors:read", "products:read", "pricing:read"],
  [SANDBOX_KEYS.research]: ["research:read", "studies:read"],
  [SANDBOX_KEYS.vendors]: ["vendors:read"],
};

/** The key sent with a request (`Authorization: Bearer` first, then `X-API-Key`), as given. */
export function readKey(headers: IncomingHttpHeaders): { key: string | undefined; malformed: boolean } {
  const auth = headers.authorization;
  if (auth !== undefined && auth.trim() !== "") {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth.trim());
    return m ? { key: m[1], malformed: false } : { key: undefined, malformed: true };
  }
  const x = headers["x-api-key"];
  const value = Array.isArray(x) ? x[0] : x;
  return value !== undefined && value.trim() !== ""
    ? { key: value.trim(), malformed: false }
    : { key: undefined, malformed: false };
}

/** The known key of a request, or undefined; unknown keys are reported by `authorize`. */
export function knownKey(headers: IncomingHttpHeaders): string | undefined {
  const { key } = readKey(headers);
  return key !== undefined && KEY_SCOPES[key] !== undefined ? key : undefined;
}

export function authorize(endpoint: Endpoint, headers: IncomingHttpHeaders): void {
  const { key, malformed } = readKey(headers);
  if (malformed) throw new SandboxError(401, "invalid_api_key", "the Authorization header must be 'Bearer <API key>'");
  if (key !== undefined && KEY_SCOPES[key] === undefined)
    throw new SandboxError(401, "invalid_api_key", "the API key is not valid");
  if (!endpoint.keyRequired) return;
  if (key === undefined) {
    throw new SandboxError(
      401,
      "missing_api_key",
      `this endpoint needs an API key with the ${endpoint.scope} scope, sent as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'`,
    );
  }
  if (!(KEY_SCOPES[key] ?? []).includes(endpoint.scope)) {
    throw new SandboxError(
      403,
      "insufficient_scope",
      `the API key lacks the ${endpoint.scope} scope needed by this endpoint`,
    );
  }
}
