import { setupMissing } from "./setup-missing.js";
import type { Endpoint } from "../api/endpoints.js";
import type { GlobalOptions } from "../api/globals.js";
import { withProfile } from "../config/profile.js";
import type { ConfigStore } from "../config/store.js";
import type { ResolvedConfig } from "../config/config-types.js";
import { AuthError, UsageError } from "../core/errors.js";
import { keyFingerprint, keyMasked } from "../core/key-display.js";
import { redactKey } from "../http/key.js";
import type { Client, ClientEvent, ClientOptions, Meta } from "../http/client-types.js";
import { type Provenance, provenanceOf } from "./provenance.js";
import { colorEnabled, type IO } from "../core/io.js";
import { cleanBlock } from "../core/sanitize.js";
import { SANDBOX_NOTICE, watchForSandbox } from "../core/sandbox-notice.js";
import { createWaits, type Waits } from "../output/waits.js";
import type { ClientEventOutcome, Context, Deps } from "../core/command-context.js";
import { hideUrlCredentials } from "../core/credentials.js";
import { withheldLine } from "../config/key-origin.js";
import { libraryClient, renewable } from "./offline-run.js";
export type { Context, Deps, GlobalOptions } from "../core/command-context.js";

export interface ContextInit {
  io: IO;
  globals: GlobalOptions;
  profile: string;
  fields: readonly string[] | undefined;
  deps: Deps;
  config: () => Promise<ResolvedConfig>;
  store: () => Promise<ConfigStore>;
  /** Answers come from the local library (`--offline`), not the API. */
  offline?: boolean;
}

/** `/vendors/{id}` -> a pattern matching the end of a request's path, `/v1/vendors/abc`. */
function pathPattern(path: string): RegExp {
  const parts = path.split(/\{[^}]+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`${parts.join("[^/]+")}/?$`);
}

/** Redacts the key in a header value: `Bearer ****abcd`. */
function redact(value: string, key: string | undefined): string {
  if (!key) return value;
  return redactKey(value, key, keyMasked(key));
}

/** The run's stderr lines: notices (not under -q), the sandbox's once (always), and -v's debug lines. */
function stderrLines(init: ContextInit) {
  const { io, globals } = init;
  // Notices can carry what the API sent (a request id header, a URL): cleaned like all
  // printed text, so that nothing in them acts on the terminal.
  // A command it suggests (`pep config set …`) names the profile in use.
  const notice = (line: string) => {
    if (!globals.quiet) io.stderr.write(`${cleanBlock(hideUrlCredentials(withProfile(line, init.profile)))}\n`);
  };
  let sandboxNoticed = false;
  // Synthetic data always says so: -q silences notices, not this one.
  const sandboxSeen = (url: string) => {
    if (sandboxNoticed) return;
    sandboxNoticed = true;
    io.stderr.write(`${cleanBlock(SANDBOX_NOTICE.replace("{url}", url))}\n`);
  };
  const debug = (line: string) => {
    if (globals.verbose) io.stderr.write(`${cleanBlock(hideUrlCredentials(line))}\n`);
  };
  return { notice, sandboxSeen, debug, synthetic: () => sandboxNoticed };
}

/**
 * What this run learns of the profile's stored key: a success from a keyed endpoint
 * shows that the key has the endpoint's scope, a 403 that it lacks it
 * (docs/api.md#authentication-and-scopes). Recorded in the profile when the run ends,
 * for `pep auth status`.
 */
function scopeWatch(init: ContextInit) {
  const outcomes = new Map<string, "granted" | "refused">();
  const watched = new Map<string, { pattern: RegExp; scope: string }>();
  let watchedKey: string | undefined;
  return {
    /** Watches answers of `endpoint` when the key comes from the profile. */
    watch(endpoint: Endpoint, cfg: ResolvedConfig) {
      if (!endpoint.keyRequired || cfg.apiKey === undefined || cfg.apiKeySource !== "config") return;
      watchedKey = cfg.apiKey;
      watched.set(endpoint.path, { pattern: pathPattern(endpoint.path), scope: endpoint.scope });
    },
    note(apiKey: string | undefined, url: string, status: number) {
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
      for (const { pattern, scope } of watched.values()) if (pattern.test(path)) outcomes.set(scope, outcome);
    },
    async record() {
      if (outcomes.size === 0 || watchedKey === undefined) return;
      await (await init.store()).noteScopes(init.profile, keyFingerprint(watchedKey), outcomes);
    },
  };
}

type Lines = ReturnType<typeof stderrLines>;

/** What the client's events become: -v lines, waits shown, scopes noted, a warning when the key comes back. */
function eventHandler(
  init: ContextInit,
  lines: Lines,
  waits: Waits,
  scopes: ReturnType<typeof scopeWatch>,
  listeners: ReadonlyArray<(e: ClientEvent) => ClientEventOutcome>,
) {
  const { io, globals } = init;
  const { debug } = lines;
  return (apiKey: string | undefined) =>
    (e: ClientEvent): void => {
      let told = false;
      for (const fn of listeners) if (fn(e) === "told") told = true;
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
          scopes.note(apiKey, e.url, e.status);
          debug(
            `< ${e.status}${e.fromCache ? " (not modified, from cache)" : ""} ${redact(e.url, apiKey)} ${e.ms} ms, ${e.bytes} bytes${e.requestId ? `, request ${redact(e.requestId, apiKey)}` : ""}`,
          );
          break;
        case "retry":
          if (!told) waits.retry(e);
          break;
        case "pace":
          if (!told) waits.pace(e.waitMs);
          break;
        case "key-echo":
          io.stderr.write(
            "warning: the API's answer contains your API key; it is printed as sent, so take care where the output goes\n",
          );
          break;
      }
    };
}

/** No API to talk to: said before anything else is missing (a key is of no use without one). */
function noBaseUrl(): UsageError {
  return setupMissing(
    new UsageError("no API base URL is configured", {
      hints: [
        "Set one with `pep config set base_url https://<host>/v1`, PEP_BASE_URL or --base-url,",
        "or try the built-in sandbox: `pep --sandbox peptides list`.",
      ],
    }),
  );
}

/** Makes a client from the resolved settings and `overrides`, closed when the run ends. */
function clientFactory(
  init: ContextInit,
  onEvent: ReturnType<typeof eventHandler>,
  { sandboxSeen, debug, notice }: Lines,
  cleanups: Array<() => Promise<void> | void>,
  onMeta: ((meta: Meta) => void) | undefined,
) {
  let keyWithheldSaid = false; // said once, when the run is about to talk to the API
  return async (overrides: Partial<ClientOptions>): Promise<Client> => {
    const cfg = await init.config();
    const baseUrl = overrides.baseUrl ?? cfg.baseUrl;
    if (!baseUrl) throw noBaseUrl();
    const [{ createClient }, { paginate }, { rateScopeOf }] = await Promise.all([
      import("../http/client.js"),
      import("../http/paginate.js"),
      import("../api/rate-scopes.js"),
    ]);
    let cache: ClientOptions["cache"] = false;
    if (cfg.cache && overrides.cache !== false) {
      const { createFileCache } = await import("../http/cache.js");
      cache = createFileCache(cfg.cacheDir, {
        maxBytes: cfg.cacheMaxBytes,
        onDropped: (file, why) => debug(`cache: ${file} ${why}`),
        onUntrusted: (why) =>
          notice(
            `warning: the cache is off for this run: ${why}, so an answer kept there could be someone else's; make it yours alone (chmod go-w, or PEP_CACHE_DIR for another folder)`,
          ),
      });
    }
    const apiKey = "apiKey" in overrides ? overrides.apiKey : cfg.apiKey;
    if (!("apiKey" in overrides) && cfg.keyWithheld && !keyWithheldSaid) notice(withheldLine(cfg)!);
    keyWithheldSaid ||= !("apiKey" in overrides) && cfg.keyWithheld !== undefined;
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
        proxy: init.globals.sandbox ? undefined : cfg.proxy,
        clock: init.deps.clock,
        timers: init.deps.timers,
        onEvent: onEvent(apiKey),
        // The API's rate limits are per scope: metered (vendors, products, prices) and research.
        rateScopeOf: (url) => rateScopeOf(baseUrl, url),
        ...overrides,
      }),
      paginate,
      sandboxSeen,
      onMeta,
    );
    cleanups.push(() => client.close());
    return client;
  };
}

/** `make`, called at most once: its promise kept for every later call. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** What the program's shell sees of a run's context beyond what commands get. */
export interface RunContext extends Context {
  cleanup(): Promise<void>;
  /** An answer of this run was marked as synthetic sandbox data. */
  synthetic(): boolean;
  /** What this run fetched and from where (collected only with --manifest). */
  provenance(): Provenance;
}

/**
 * The run's one API client, made on first use, after the checks every endpoint needs: a
 * base URL, and a key where the endpoint requires one (before any request).
 */
function sharedClient(
  init: ContextInit,
  scopes: ReturnType<typeof scopeWatch>,
  makeClient: (overrides: Partial<ClientOptions>) => Promise<Client>,
): (endpoint: Endpoint | undefined) => Promise<Client> {
  let shared: Promise<Client> | undefined;
  return async (endpoint) => {
    const cfg = await init.config();
    if (!cfg.baseUrl) throw noBaseUrl();
    if (endpoint?.keyRequired && !cfg.apiKey) {
      throw setupMissing(
        new AuthError(`${endpoint.path} needs an API key with the ${endpoint.scope} scope, and none is set`, {
          hints: [
            withheldLine(cfg) ?? "Run `pep auth login` to store one, or give --api-key-file <path|-> or PEP_API_KEY.",
          ],
        }),
      );
    }
    if (endpoint) scopes.watch(endpoint, cfg);
    shared ??= makeClient({});
    return shared;
  };
}

export function createContext(init: ContextInit): RunContext {
  const cleanups: Array<() => Promise<void> | void> = [];
  const { io, globals } = init;
  const lines = stderrLines(init);
  const { notice, debug } = lines;
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
  const scopes = scopeWatch(init);
  cleanups.push(() => scopes.record());
  // Others who hear the clients' events (`pep mcp`'s progress notifications).
  const listeners: Array<(e: ClientEvent) => ClientEventOutcome> = [];
  const provenance = provenanceOf(init.globals.manifest === true, listeners);
  const makeClient = clientFactory(
    init,
    eventHandler(init, lines, waits, scopes, listeners),
    lines,
    cleanups,
    provenance.onMeta,
  );

  const runClient = sharedClient(init, scopes, makeClient);
  const offline = init.offline
    ? renewable(() => libraryClient(init, lines, cleanups, provenance.record), once)
    : undefined;
  const ctx: RunContext = {
    synthetic: lines.synthetic,
    provenance: () => provenance.record,
    answeredFrom: provenance.answeredFrom,
    io,
    profile: init.profile,
    fields: init.fields,
    quiet: globals.quiet === true,
    maxAge: globals.maxAge,
    offline: init.offline === true,
    config: init.config,
    store: init.store,
    notice,
    sandboxData: lines.sandboxSeen,
    debug,
    waits,
    progressClock: init.deps.progressClock,
    openPage: async (url) => (await import("./open-page.js")).openPage(url, init.io, init.deps),
    async client(endpoint, overrides) {
      if (offline && !overrides) return offline.client();
      if (overrides) return makeClient(overrides);
      return runClient(endpoint);
    },
    ...(offline ? { renewLibrary: offline.renew } : {}),
    onCleanup(fn) {
      cleanups.push(fn);
    },
    onClientEvent(fn) {
      listeners.push(fn);
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
