/**
 * Maps a request path to an entry of the shared endpoint table (`ENDPOINTS`), with its
 * path parameters decoded. Paths live under `/v1`; one trailing slash is tolerated.
 */
import { ENDPOINTS, type Endpoint, type EndpointName } from "../api/endpoints.js";
import { SandboxError } from "./sandbox-error.js";

export interface Route {
  name: EndpointName;
  endpoint: Endpoint;
  params: Record<string, string>;
}

interface Pattern {
  name: EndpointName;
  parts: string[];
}

/** Literal segments win over parameters (`/vendors/compare` before `/vendors/{id}`). */
const PATTERNS: Pattern[] = (Object.keys(ENDPOINTS) as EndpointName[])
  .map((name) => ({ name, parts: ENDPOINTS[name].path.split("/").filter((p) => p !== "") }))
  .sort((a, b) => {
    const literals = (p: Pattern) => p.parts.filter((s) => !s.startsWith("{")).length;
    return literals(b) - literals(a);
  });

export const API_PREFIX = "/v1";

/** Undefined when no endpoint has this path. */
export function matchRoute(pathname: string): Route | undefined {
  if (pathname !== API_PREFIX && !pathname.startsWith(`${API_PREFIX}/`)) return undefined;
  let rest = pathname.slice(API_PREFIX.length);
  if (rest.length > 1 && rest.endsWith("/")) rest = rest.slice(0, -1);
  const segments = rest.split("/").filter((_, i) => i > 0);
  if (rest === "" || rest === "/") return { name: "index", endpoint: ENDPOINTS.index, params: {} };
  for (const p of PATTERNS) {
    if (p.parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < p.parts.length && ok; i++) {
      const part = p.parts[i] as string;
      const seg = segments[i] as string;
      if (part.startsWith("{")) {
        let decoded: string;
        try {
          decoded = decodeURIComponent(seg);
        } catch {
          throw new SandboxError(400, "invalid_parameter", `path segment '${seg}' is not valid percent-encoding`);
        }
        if (decoded === "") ok = false;
        else params[part.slice(1, -1)] = decoded;
      } else if (part !== seg) ok = false;
    }
    if (ok) return { name: p.name, endpoint: ENDPOINTS[p.name], params };
  }
  return undefined;
}
