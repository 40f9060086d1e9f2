import type { Endpoint } from "../api/endpoints.js";
import type { GlobalOptions } from "../api/globals.js";
import { withProfile } from "../config/profile.js";
import type { ConfigStore } from "../config/store.js";
import type { ResolvedConfig } from "../config/types.js";
import { AuthError, UsageError } from "../core/errors.js";
import { keyFingerprint, redactKey } from "../http/key.js";
import type { Client, ClientEvent, ClientOptions, Clock, Timers } from "../http/types.js";
import { colorEnabled, type IO } from "../core/io.js";
import { cleanBlock } from "../output/sanitize.js";
import { SANDBOX_NOTICE, watchForSandbox } from "../core/sandbox-notice.js";
import { createWaits, type Waits } from "../output/waits.js";

/** Global options of contract section 1, as commander parses them. */
export type { GlobalOptions } from "../api/globals.js";

/** What `run(argv, deps)` may be handed, for tests and embedding. */
export interface Deps {
  io?: IO;
  /** Clock for retries and pacing (tests inject one that does not wait). */
  clock?: Clock;
  /** Timers of each request's timeout (tests inject ones they fire, instead of waiting). */
  timers?: Timers;
  /** Options for the in-process sandbox of `--sandbox` (faults, seed, scale). */
  sandbox?: Record<string, unknown>;
}

export interface Context {
  readonly io: IO;
  /** The profile of this run: --profile, else PEP_PROFILE, else `default`. */
  readonly profile: string;
  /** `--fields`, split once: undefined when not given, `[]` when given empty. */
  readonly fields: readonly string[] | undefined;
  /** The settings of this run (flags > environment > profile > defaults; the sandbox above all). */
  config(): Promise<ResolvedConfig>;
  /** The config file (for `pep config` and `pep auth`). */
  store(): Promise<ConfigStore>;
  /**
   * The client for the configured API, one per run. Given an endpoint that needs a key,
   * it fails with exit 3 before any request when there is none. With `overrides`, a new
   * client with other settings (`auth login` checking a key not yet stored, `pep api`
   * fetching another origin without the key).
   */
  client(endpoint?: Endpoint, overrides?: Partial<ClientOptions>): Promise<Client>;
  /** A line on stderr, unless `--quiet`. */
  notice(line: string): void;
  /** A line on stderr with `--verbose` only (the request log's channel). */
  debug(line: string): void;
  /** Retry and rate-limit waits, shown in the spinner's line or as notices. */
  readonly waits: Waits;
  /** Runs at the end of the run, whatever happens (close pools, stop the sandbox). */
  onCleanup(fn: () => Promise<void> | void): void;
}

export interface ContextInit {
  io: IO;
  globals: GlobalOptions;
  profile: string;
  fields: readonly string[] | undefined;
  deps: Deps;
  config: () => Promise<ResolvedConfig>;
  store: () => Promise<ConfigStore>;
}

/** `/vendors/{id}` -> a pattern matching the end of a request's path, `/v1/vendors/abc`. */
function pathPattern(path: string): RegExp {
  const parts = path.split(/\{[^}]+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`${parts.join("[^/]+")}/?$`);
}

/** Redacts the key in a header value: `Bearer ****abcd`. */
function redact(value: string, key: string | undefined): string {
  if (!key) return value;
  return redactKey(value.split(key).join(keyFingerprint(key)), key);
}

export function createContext(init: ContextInit): Context & { cleanup(): Promise<void> } {
  const cleanups: Array<() => Promise<void> | void> = [];
  const clients = new Map<string, Promise<Client>>();
  const { io, globals } = init;

  // Notices can carry what the API sent (a request id header, a URL): cleaned like all
  // printed text, so that nothing in them acts on the terminal.
  // A command it suggests (`pep config set …`) names the profile in use.
  const notice = (line: string) => {
    if (!globals.quiet) io.stderr.write(`${cleanBlock(withProfile(line, init.profile))}\n`);
  };
  let sandboxNoticed = false;
  const sandboxSeen = (url: string) => {
    if (sandboxNoticed) return;
    sandboxNoticed = true;
    notice(SANDBOX_NOTICE.replace("{url}", url));
  };
  const debug = (line: string) => {
    if (globals.verbose) io.stderr.write(`${cleanBlock(line)}\n`);
  };
  const waits = createWaits({
    stream: io.stderr,
    isTTY: io.stderrIsTTY,
    quiet: globals.quiet === true,
    color: colorEnabled(io.env, io.stderrIsTTY, globals.color),
    env: io.env,
    notice,
    debug,
  });
  cleanups.push(() => waits.stop());

  // What this run learns of the profile's stored key: a success from a keyed endpoint
  // shows that the key has the endpoint's scope, a 403 that it lacks it (spec 5 and 7).
  // Recorded in the profile when the run ends, for `pep auth status`.
  const scopeOutcomes = new Map<string, "granted" | "refused">();
  const watched = new Map<string, { pattern: RegExp; scope: string }>();
  let watchedKey: string | undefined;
  const noteScope = (apiKey: string | undefined, url: string, status: number) => {
    if (apiKey === undefined || apiKey !== watchedKey) return;
    const outcome =
      (status >= 200 && status < 300) || status === 304 ? "granted" : status === 403 ? "refused" : undefined;
    if (!outcome) return;
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      return;
    }
    for (const { pattern, scope } of watched.values()) if (pattern.test(path)) scopeOutcomes.set(scope, outcome);
  };
  cleanups.push(async () => {
    if (scopeOutcomes.size === 0 || watchedKey === undefined) return;
    const { keyDigest } = await import("../config/key-digest.js");
    await (await init.store()).noteScopes(init.profile, keyDigest(watchedKey), scopeOutcomes);
  });

  const onEvent = (apiKey: string | undefined) => (e: ClientEvent) => {
    switch (e.type) {
      case "request":
        waits.done();
        if (globals.verbose) {
          const headers = Object.entries(e.headers)
            .map(([k, v]) => `\n  ${k}: ${redact(v, apiKey)}`)
            .join("");
          debug(`> GET ${redact(e.url, apiKey)}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ""}${headers}`);
        }
        break;
      case "response":
        noteScope(apiKey, e.url, e.status);
        debug(
          `< ${e.status}${e.fromCache ? " (not modified, from cache)" : ""} ${redact(e.url, apiKey)} ${e.ms} ms, ${e.bytes} bytes${e.requestId ? `, request ${redact(e.requestId, apiKey)}` : ""}`,
        );
        break;
      case "retry":
        waits.retry(e);
        break;
      case "pace":
        waits.pace(e.waitMs);
        break;
      case "key-echo":
        io.stderr.write(
          "warning: the API's answer contains your API key; it is printed as sent, so take care where the output goes\n",
        );
        break;
    }
  };

  const makeClient = async (overrides: Partial<ClientOptions>): Promise<Client> => {
    const cfg = await init.config();
    const baseUrl = overrides.baseUrl ?? cfg.baseUrl;
    if (!baseUrl) {
      throw new UsageError("no API base URL is configured", {
        hints: [
          "Set one with `pep config set base_url https://<host>/v1`, PEP_BASE_URL or --base-url,",
          "or try the built-in sandbox: `pep --sandbox peptides list`.",
        ],
      });
    }
    const [{ createClient }, { paginate }] = await Promise.all([
      import("../http/client.js"),
      import("../http/paginate.js"),
    ]);
    let cache: ClientOptions["cache"] = false;
    if (cfg.cache && overrides.cache !== false) {
      const { createFileCache } = await import("../http/cache.js");
      cache = createFileCache(cfg.cacheDir, { maxBytes: cfg.cacheMaxBytes });
    }
    const apiKey = "apiKey" in overrides ? overrides.apiKey : cfg.apiKey;
    const client = watchForSandbox(
      createClient({
        baseUrl,
        apiKey,
        authHeader: cfg.authHeader,
        timeoutMs: cfg.timeoutSeconds * 1000,
        retries: cfg.retries,
        cache,
        compress: cfg.compress,
        maxResponseBytes: cfg.maxResponseMb * 1024 * 1024,
        // The in-process sandbox is on this machine: never through a proxy.
        proxy: globals.sandbox ? undefined : cfg.proxy,
        clock: init.deps.clock,
        timers: init.deps.timers,
        onEvent: onEvent(apiKey),
        ...overrides,
      }),
      paginate,
      sandboxSeen,
    );
    cleanups.push(() => client.close());
    return client;
  };

  const ctx: Context & { cleanup(): Promise<void> } = {
    io,
    profile: init.profile,
    fields: init.fields,
    config: init.config,
    store: init.store,
    notice,
    debug,
    waits,
    async client(endpoint, overrides) {
      if (overrides) return makeClient(overrides);
      const cfg = await init.config();
      if (endpoint?.keyRequired && !cfg.apiKey) {
        throw new AuthError(`${endpoint.path} needs an API key with the ${endpoint.scope} scope, and none is set`, {
          hints: ["Run `pep auth login` to store one, or give --api-key-file <path|-> or PEP_API_KEY."],
        });
      }
      if (endpoint?.keyRequired && cfg.apiKey !== undefined && cfg.apiKeySource === "config") {
        watchedKey = cfg.apiKey;
        watched.set(endpoint.path, { pattern: pathPattern(endpoint.path), scope: endpoint.scope });
      }
      let c = clients.get("default");
      if (!c) {
        c = makeClient({});
        clients.set("default", c);
      }
      return c;
    },
    onCleanup(fn) {
      cleanups.push(fn);
    },
    async cleanup() {
      for (const fn of cleanups.splice(0).reverse()) {
        try {
          await fn();
        } catch {
          // closing is best effort; the run's own outcome stands
        }
      }
    },
  };
  return ctx;
}
