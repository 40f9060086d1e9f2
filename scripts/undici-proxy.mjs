// What the bundle takes from undici for proxies: `ProxyAgent`, from undici's own module.
// src/http/transport.ts imports it with `await import("undici")` only when a proxy applies
// to a request, so it lands in a chunk of its own and runs without a proxy never load it.
// ProxyAgent opens its tunnels with `dispatcher.connect()`, which the package entry puts
// on Dispatcher.prototype (`Object.assign(Dispatcher.prototype, api)`); the lean entry
// does not, so it is put there here, as the package does it.
// See scripts/undici-lean.mjs for why the package entry is not used, and CONTRIBUTING.md's
// "Upgrading undici" for the steps when undici changes.
import Dispatcher from "undici/lib/dispatcher/dispatcher.js";
import connect from "undici/lib/api/api-connect.js";
import ProxyAgent from "undici/lib/dispatcher/proxy-agent.js";

if (typeof Dispatcher.prototype.connect !== "function") Dispatcher.prototype.connect = connect;

export { ProxyAgent };
