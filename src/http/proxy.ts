/**
 * Which proxy a request goes through. The settings come from `--proxy`, the profile's
 * `proxy` key or the environment (`https_proxy`/`HTTPS_PROXY`, `http_proxy`/
 * `HTTP_PROXY`, `no_proxy`/`NO_PROXY`, the lower-case name first, as curl reads them);
 * config/resolve.ts picks them, this module only decides per URL.
 *
 * `NO_PROXY` is a list split on commas or spaces: `*` (no proxy at all), a host name
 * (that host and every name under it), `.domain` (the same), an IP address (that
 * address), each optionally with `:port` (only that port). Loopback is not bypassed
 * on its own, as with curl: list `localhost,127.0.0.1,::1` to reach a local server
 * directly while a proxy is set.
 */
import { UsageError } from "../core/errors.js";
import type { ProxySettings } from "./types.js";

export type { ProxySettings };

export const NO_PROXY: ProxySettings = { http: undefined, https: undefined, noProxy: "" };

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

function bare(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
}

/** One `NO_PROXY` entry as host and port (0: any port). */
function parseEntry(raw: string): { host: string; port: number } | undefined {
  const entry = raw.trim().toLowerCase();
  if (entry === "") return undefined;
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (v6) return { host: v6[1]!, port: v6[2] ? Number(v6[2]) : 0 };
  const colons = entry.split(":").length - 1;
  if (colons === 1) {
    const [host, port] = entry.split(":");
    return { host: bare(host!).replace(/^\*?\./, ""), port: /^\d+$/.test(port!) ? Number(port) : 0 };
  }
  // A bare IPv6 address (more than one colon) has no port.
  return { host: colons > 1 ? entry : bare(entry).replace(/^\*?\./, ""), port: 0 };
}

/** Whether `NO_PROXY` says to reach this host and port directly. */
export function bypassesProxy(hostname: string, port: number, noProxy: string): boolean {
  const entries = noProxy.split(/[\s,]+/).filter((e) => e !== "");
  if (entries.includes("*")) return true;
  const host = bare(hostname);
  for (const raw of entries) {
    const entry = parseEntry(raw);
    if (!entry || entry.host === "") continue;
    if (entry.port !== 0 && entry.port !== port) continue;
    if (host === entry.host || host.endsWith(`.${entry.host}`)) return true;
  }
  return false;
}

/** The proxy URL for a request to `url`, or undefined to connect directly. */
export function proxyFor(url: URL, settings: ProxySettings): string | undefined {
  const proxy = url.protocol === "https:" ? settings.https : settings.http;
  if (!proxy) return undefined;
  const port = url.port === "" ? (DEFAULT_PORTS[url.protocol] ?? 0) : Number(url.port);
  return bypassesProxy(url.hostname, port, settings.noProxy) ? undefined : proxy;
}

/** `host:port` of a proxy, never its user name or password: what messages name. */
export function describeProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    return url.port ? `${url.hostname}:${url.port}` : url.hostname;
  } catch {
    return "(unreadable proxy URL)";
  }
}

/**
 * Checks a proxy URL (`--proxy`, the `proxy` key, `HTTPS_PROXY`...): http or https,
 * a host, nothing after it. A bare `host:port` is read as `http://host:port`, as curl
 * does. `where` names the origin; credentials are never repeated.
 */
export function parseProxyUrl(raw: string, where: string): string {
  const text = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(
      `${where} must be a proxy URL such as http://proxy.example:3128 (got something that is not a URL)`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(
      `${where} must be an http or https proxy URL, not ${url.protocol.replace(/:$/, "")} (${describeProxy(withScheme)})`,
    );
  }
  if (url.hostname === "" || (url.pathname !== "/" && url.pathname !== "") || url.search || url.hash) {
    throw new UsageError(
      `${where} must be a proxy URL such as http://proxy.example:3128, with nothing after the port (${describeProxy(withScheme)})`,
    );
  }
  return url.href.replace(/\/$/, "");
}

/**
 * The environment's proxy settings: lower-case names first, then upper-case, as curl
 * reads them. An empty value is unset. Bad URLs are refused with the variable's name.
 */
export function proxyFromEnv(env: Record<string, string | undefined>): ProxySettings {
  const read = (lower: string, upper: string): string | undefined => {
    for (const name of [lower, upper]) {
      const v = env[name];
      if (v !== undefined && v.trim() !== "") return parseProxyUrl(v, name);
    }
    return undefined;
  };
  const noProxy = env.no_proxy ?? env.NO_PROXY ?? "";
  return { http: read("http_proxy", "HTTP_PROXY"), https: read("https_proxy", "HTTPS_PROXY"), noProxy };
}
