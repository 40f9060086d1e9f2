// What the bundle takes from undici: `Agent` and `request`, built from undici's own
// modules. The package entry also loads fetch, WebSocket, the mock and cache layers and,
// through them, Node's built-in copy of undici: about 45 ms of every networked run's
// start-up for code pep never calls. scripts/build.mjs points `undici` imports in src/
// here; tests of src/ use the package itself, and the end-to-end tests run the bundle.
// A name src/ takes from undici that is missing here fails the build.
import Agent from "undici/lib/dispatcher/agent.js";
import requestOn from "undici/lib/api/api-request.js";
import errors from "undici/lib/core/errors.js";
import util from "undici/lib/core/util.js";

export { Agent };

/**
 * `request(url, options)` as the package exports it (its makeDispatcher), except that the
 * dispatcher must be given: the package's global dispatcher is not loaded.
 */
export function request(url, opts) {
  if (!url || (typeof url !== "string" && typeof url !== "object"))
    throw new errors.InvalidArgumentError("invalid url");
  if (opts != null && typeof opts !== "object") throw new errors.InvalidArgumentError("invalid opts");
  if (opts && opts.path != null) {
    if (typeof opts.path !== "string") throw new errors.InvalidArgumentError("invalid opts.path");
    const path = opts.path.startsWith("/") ? opts.path : `/${opts.path}`;
    url = new URL(util.parseOrigin(url).origin + path);
  } else {
    if (!opts) opts = typeof url === "object" ? url : {};
    url = util.parseURL(url);
  }
  const { agent, dispatcher } = opts;
  if (agent) throw new errors.InvalidArgumentError("unsupported opts.agent. Did you mean opts.client?");
  if (!dispatcher) throw new errors.InvalidArgumentError("a dispatcher is required (the global one is not bundled)");
  return requestOn.call(dispatcher, {
    ...opts,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
    method: opts.method || (opts.body ? "PUT" : "GET"),
  });
}
