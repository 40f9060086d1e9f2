/**
 * What a command is handed: the streams, the run's settings, the client. The interface
 * lives here, below every layer that takes it; `cli/run-context.ts` builds it.
 */
import type { Endpoint } from "../api/endpoints.js";
import type { ConfigStore } from "../config/store.js";
import type { ResolvedConfig } from "../config/config-types.js";
import type { Client, ClientEvent, ClientOptions, Clock, Timers } from "../http/client-types.js";
import type { ProgressClock } from "../output/progress.js";
import type { Waits } from "../output/waits.js";
import type { LibraryFacts } from "../library/facts-types.js";
import type { IO, Launch } from "./io.js";

/** Global options (docs/cli.md#global-options), as commander parses them. */
export type { GlobalOptions } from "../api/globals.js";

/** What `run(argv, deps)` may be handed, for tests and embedding. */
/**
 * What a listener of the client's events did with one: `"told"` when it said on standard
 * error what really happens (a wait `pep mcp` does not sit through), so the run's own line
 * ("waiting 74s") is not written.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: listeners that say nothing return nothing (void), not undefined
export type ClientEventOutcome = void | "told";

export interface Deps {
  io?: IO;
  /** Clock for retries and pacing (tests inject one that does not wait). */
  clock?: Clock;
  /** Timers of each request's timeout (tests inject ones they fire, instead of waiting). */
  timers?: Timers;
  /** Time of the progress lines and spinner (tests inject a faster one, instead of waiting). */
  progressClock?: ProgressClock;
  /** Options for the in-process sandbox of `--sandbox` (faults, seed, scale). */
  sandbox?: Record<string, unknown>;
  /** Starts the program that opens a web page (tests record the arguments instead). */
  launch?: (argv: readonly string[], env: IO["env"]) => Promise<Launch>;
}

/** What became of opening a page: opened with `via`, or why not. */
export type PageOpening = { opened: true; via: string } | { opened: false; reason: string };

/**
 * What a command answering from the library itself (`pep sql`, `pep changes`) read, for a
 * manifest: the statement as run, with its parameters, and the library's facts
 * (library/library-facts.ts `LibraryFacts`), read only when a manifest is wanted.
 */
export interface LibraryAnswer {
  /** None for what is not one statement (`pep sql --tables`, `--schema`). */
  query?: { sql: string; params: readonly unknown[] } | undefined;
  facts: () => Promise<LibraryFacts>;
}

export interface Context {
  readonly io: IO;
  /** The profile of this run: --profile, else PEP_PROFILE, else `default`. */
  readonly profile: string;
  /** `--fields`, split once: undefined when not given, `[]` when given empty. */
  readonly fields: readonly string[] | undefined;
  /** `--quiet`: no notices or progress on stderr (a command drawing its own progress asks). */
  readonly quiet?: boolean;
  /** `--max-age` as given (a duration): how old a library resource a reader uses may be. */
  readonly maxAge?: string | undefined;
  /** Answers come from the local library (`--offline`, PEP_OFFLINE or the profile's `offline`): `client()` reads it. */
  readonly offline?: boolean;
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
  /**
   * An offline run's library is read anew on the client's next use: a server that lives
   * on (`pep mcp --offline`) learnt that a newer sync finished. Undefined online.
   */
  renewLibrary?(): void;
  /** A line on stderr, unless `--quiet`. */
  notice(line: string): void;
  /** Opens an http(s) address with the user's browser (core/browser.ts chooses the program). */
  openPage(url: string): Promise<PageOpening>;
  /**
   * Says once, whatever `-q`, that what the run shows is the sandbox's synthetic data (the
   * line an answer marked `meta.sandbox` prints), for data that comes from elsewhere than
   * an answer: a library a sandbox filled, read by `pep sql` or `pep changes`.
   */
  sandboxData(url: string): void;
  /** A line on stderr with `--verbose` only (the request log's channel). */
  debug(line: string): void;
  /** Retry and rate-limit waits, shown in the spinner's line or as notices. */
  readonly waits: Waits;
  /** Time of the progress lines and spinner: real time unless a test gave its own. */
  readonly progressClock?: ProgressClock | undefined;
  /** Runs at the end of the run, whatever happens (close pools, stop the sandbox). */
  onCleanup(fn: () => Promise<void> | void): void;
  /**
   * Hears every event of the run's clients (requests, answers, retry and pacing waits)
   * besides the run's own logging: `pep mcp` turns them into progress notifications.
   */
  onClientEvent(fn: (e: ClientEvent) => ClientEventOutcome): void;
  /** A library command tells what it answered from (kept for `--manifest`, read then and only then). */
  answeredFrom?(answer: LibraryAnswer): Promise<void>;
}
