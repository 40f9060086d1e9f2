/**
 * The one door to the outside for commands: streams (io), settings (config), the HTTP
 * client, notices. Everything is created lazily, so a command that needs no network
 * loads no HTTP code, and `--help` loads nothing at all.
 */
import type { OutputFormat } from "./api/enums.js";
import type { Endpoint } from "./api/endpoints.js";
import type { ConfigStore } from "./config/store.js";
import type { ResolvedConfig } from "./config/types.js";
import { AuthError, UsageError } from "./errors.js";
import { keyFingerprint } from "./http/key.js";
import type { Client, ClientEvent, ClientOptions, Clock } from "./http/types.js";
import { colorEnabled, type IO } from "./io.js";
import { cleanBlock } from "./output/sanitize.js";
import { createWaits, type Waits } from "./output/waits.js";

/** Global options of contract section 1, as commander parses them. */
export interface GlobalOptions {
  baseUrl?: string;
  apiKeyFile?: string;
  authHeader?: string;
  profile?: string;
  output?: string;
  fields?: string;
  file?: string;
  timeout?: string;
  retries?: string;
  /** false with --no-retry */
  retry?: boolean;
  /** false with --no-cache */
  cache?: boolean;
  /** false with --no-color */
  color?: boolean;
  /** false with --no-pager */
  pager?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  sandbox?: boolean;
}

/** What `run(argv, deps)` may be handed, for tests and embedding. */
export interface Deps {
  io?: IO;
  /** Clock for retries and pacing (tests inject one that does not wait). */
  clock?: Clock;
  /** Options for the in-process sandbox of `--sandbox` (faults, seed, scale). */
  sandbox?: Record<string, unknown>;
}

export interface Context {
  readonly io: IO;
  readonly globals: GlobalOptions;
  /** The words the user typed after `pep`, for the resume hint. */
  readonly argv: readonly string[];
  /** The output format of this run. */
  readonly format: OutputFormat;
  /** Colour is allowed on stderr/stdout. */
  readonly color: boolean;
  readonly deps: Deps;
  config(): Promise<ResolvedConfig>;
  /** The config file (for `pep config` and `pep auth`). */
  store(): Promise<ConfigStore>;
  /**
   * The client for the configured API. Given an endpoint that needs a key, it fails with
   * exit 3 before any request when there is none.
   */
  client(endpoint?: Endpoint): Promise<Client>;
  /** A client with other settings (e.g. `auth login` checking a key not yet stored). */
  makeClient(overrides: Partial<ClientOptions>): Promise<Client>;
  /** A line on stderr, unless `--quiet`. */
  notice(line: string): void;
  /** A line on stderr with `--verbose` only. */
  debug(line: string): void;
  /** Retry and rate-limit waits, shown in the spinner's line or as notices. */
  readonly waits: Waits;
  /** Runs at the end of the run, whatever happens (close pools, stop the sandbox). */
  onCleanup(fn: () => Promise<void> | void): void;
}

export const SANDBOX_NOTICE = "sandbox data, synthetic: not real research (in-process sandbox at {url})";

export interface ContextInit {
  io: IO;
  globals: GlobalOptions;
  argv: readonly string[];
  format: OutputFormat;
  color: boolean;
  deps: Deps;
  config: () => Promise<ResolvedConfig>;
  store: () => Promise<ConfigStore>;
}

/** Redacts the key in a header value: `Bearer ****abcd`. */
function redact(value: string, key: string | undefined): string {
  if (!key || !value.includes(key)) return value;
  return value.split(key).join(keyFingerprint(key));
}

export function createContext(init: ContextInit): Context & { cleanup(): Promise<void> } {
  const cleanups: Array<() => Promise<void> | void> = [];
  const clients = new Map<string, Promise<Client>>();
  const { io, globals } = init;

  // Notices can carry what the API sent (a request id header, a URL): cleaned like all
  // printed text, so that nothing in them acts on the terminal.
  const notice = (line: string) => {
    if (!globals.quiet) io.stderr.write(`${cleanBlock(line)}\n`);
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
        debug(
          `< ${e.status}${e.fromCache ? " (not modified, from cache)" : ""} ${redact(e.url, apiKey)} ${e.ms} ms, ${e.bytes} bytes${e.requestId ? `, request ${e.requestId}` : ""}`,
        );
        break;
      case "retry":
        waits.retry(e);
        break;
      case "pace":
        waits.pace(e.waitMs);
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
    const { createClient } = await import("./http/client.js");
    let cache: ClientOptions["cache"] = false;
    if (cfg.cache && !globals.sandbox && overrides.cache !== false) {
      const { createFileCache } = await import("./http/cache.js");
      cache = createFileCache(cfg.cacheDir);
    }
    const apiKey = "apiKey" in overrides ? overrides.apiKey : cfg.apiKey;
    const client = createClient({
      baseUrl,
      apiKey,
      authHeader: cfg.authHeader,
      timeoutMs: cfg.timeoutSeconds * 1000,
      retries: cfg.retries,
      cache,
      clock: init.deps.clock,
      onEvent: onEvent(apiKey),
      ...overrides,
    });
    cleanups.push(() => client.close());
    return client;
  };

  const ctx: Context & { cleanup(): Promise<void> } = {
    io,
    globals,
    argv: init.argv,
    format: init.format,
    color: init.color,
    deps: init.deps,
    config: init.config,
    store: init.store,
    notice,
    debug,
    waits,
    makeClient,
    async client(endpoint) {
      const cfg = await init.config();
      if (endpoint?.keyRequired && !cfg.apiKey) {
        throw new AuthError(`${endpoint.path} needs an API key with the ${endpoint.scope} scope, and none is set`, {
          hints: ["Run `pep auth login` to store one, or give --api-key-file <path|-> or PEP_API_KEY."],
        });
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
