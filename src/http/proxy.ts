/**
 * Which proxy a request goes through. The settings come from `--proxy`, the profile's
 * `proxy` key or the environment (`https_proxy`/`HTTPS_PROXY`, `http_proxy`/
 * `HTTP_PROXY`, `no_proxy`/`NO_PROXY`, the lower-case name first, as curl reads them);
 * config/resolve.ts picks them, this module only decides per URL.
 *
 * `NO_PROXY` is a list split on commas or spaces, read as curl reads it: `*` (no proxy
 * at all), a host name (that host and every name under it), `.domain` (the same), an IP
 * address (that address only) or a CIDR range (`10.0.0.0/8`, `fe80::/10`), each
 * optionally with `:port` (only that port). Loopback is not bypassed on its own, as with
 * curl: list `localhost,127.0.0.1,::1` to reach a local server directly while a proxy is set.
 */
import { builtin } from "../core/builtin.js";
import { UsageError } from "../core/errors.js";
import type { ProxySettings } from "./client-types.js";

export type { ProxySettings };

export const NO_PROXY: ProxySettings = { http: undefined, https: undefined, noProxy: "" };

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

function bare(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
}

type Family = 4 | 6;

/** One `NO_PROXY` entry: a name (matching itself and the names under it) or an address range; port 0 is any port. */
type Entry =
  | { kind: "name"; name: string; port: number }
  | { kind: "ip"; address: string; family: Family; bits: number; port: number };

const familyOf = (address: string): Family | 0 => {
  const f = builtin<typeof import("node:net")>("node:net").isIP(address);
  return f === 4 || f === 6 ? f : 0;
};

/** An address with an optional `/bits`, as an entry; undefined when it is not one. */
function ipEntry(address: string, bits: string | undefined, port: number): Entry | undefined {
  const family = familyOf(address);
  if (family === 0) return undefined;
  const max = family === 4 ? 32 : 128;
  const n = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (!(n >= 0 && n <= max)) return undefined;
  return { kind: "ip", address, family, bits: n, port };
}

/**
 * One `NO_PROXY` entry: `[v6]`, `[v6]:port`, `[v6]/bits`, a bare IPv6 address with an
 * optional `/bits` (no port: its colons are the address's), `v4`, `v4/bits`, `v4:port`,
 * or a name with an optional `:port`, a leading `.` or `*.` and a trailing `.` ignored.
 */
function parseEntry(raw: string): Entry | undefined {
  const entry = raw.trim().toLowerCase();
  if (entry === "") return undefined;
  const bracketed = /^\[([^\]]+)\](?:\/(\d+))?(?::(\d+))?$/.exec(entry);
  if (bracketed) return ipEntry(bracketed[1]!, bracketed[2], bracketed[3] ? Number(bracketed[3]) : 0);
  const colons = entry.split(":").length - 1;
  if (colons > 1) {
    const [address, bits] = entry.split("/");
    return ipEntry(address!, bits, 0);
  }
  const [where, portText] = colons === 1 ? entry.split(":") : [entry, undefined];
  const port = portText !== undefined && /^\d+$/.test(portText) ? Number(portText) : 0;
  if (portText !== undefined && port === 0) return undefined;
  if (where!.includes("/")) {
    const [address, bits] = where!.split("/");
    return ipEntry(address!, bits, port);
  }
  if (familyOf(where!) === 4) return ipEntry(where!, undefined, port);
  const name = bare(where!).replace(/^\*?\./, "");
  return name === "" ? undefined : { kind: "name", name, port };
}

/** Whether `address` (of `family`) lies in the entry's range. */
function inRange(address: string, family: Family, entry: Extract<Entry, { kind: "ip" }>): boolean {
  const { BlockList } = builtin<typeof import("node:net")>("node:net");
  const list = new BlockList();
  list.addSubnet(entry.address, entry.bits, entry.family === 4 ? "ipv4" : "ipv6");
  return list.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * Whether `NO_PROXY` says to reach this host and port directly, by curl's rules: `*`
 * alone or as an entry; a host that is an IP address matches only an address entry equal
 * to it or a CIDR range holding it (`0.1` or `.0.0.1` is no suffix of `127.0.0.1`); a
 * name matches a name entry equal to it or one it ends in after a dot (`example.com`
 * and `.example.com` both hold `api.example.com`, never `notexample.com`), in any case.
 * An entry's `:port` limits it to that port (curl ignores ports; pep keeps them narrow).
 */
export function bypassesProxy(hostname: string, port: number, noProxy: string): boolean {
  const entries = noProxy.split(/[\s,]+/).filter((e) => e !== "");
  if (entries.includes("*")) return true;
  const host = bare(hostname);
  const family = familyOf(host);
  for (const raw of entries) {
    const entry = parseEntry(raw);
    if (!entry) continue;
    if (entry.port !== 0 && entry.port !== port) continue;
    if (family !== 0) {
      if (entry.kind === "ip" && inRange(host, family, entry)) return true;
    } else if (entry.kind === "name" && (host === entry.name || host.endsWith(`.${entry.name}`))) {
      return true;
    }
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
