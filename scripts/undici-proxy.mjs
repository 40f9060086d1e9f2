// What the bundle takes from undici for proxies: `ProxyAgent`, from undici's own module.
// src/http/transport.ts imports it with `await import("undici")` only when a proxy applies
// to a request, so it lands in a chunk of its own and runs without a proxy never load it.
// See scripts/undici-lean.mjs for why the package entry is not used, and the README's
// "Upgrading undici" for the steps when undici changes.
import ProxyAgent from "undici/lib/dispatcher/proxy-agent.js";

export { ProxyAgent };
