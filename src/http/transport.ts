/**
 * The transport: one GET through a keep-alive undici pool (or a proxy, `proxy.ts`), its
 * body read in full up to a size limit and then decompressed in one call, and every
 * failure of the connection (not of an HTTP status) as a NetworkError in words. It
 * knows nothing of the API's JSON: `decode.ts` reads what this brings back.
 */
import { isIP } from "node:net";
import type { Readable } from "node:stream";
import { Agent, type Dispatcher, request as undiciRequest } from "undici";
import { builtin } from "../core/builtin.js";
import { InterruptedError, NetworkError, ResponseError, UsageError } from "../core/errors.js";
import { networkError, proxyAuthError } from "./network-errors.js";
import { describeProxy, NO_PROXY, type ProxySettings, proxyFor } from "./proxy.js";
import type { Timers } from "./client-types.js";
import { type Coding, codingOf, decompress } from "./decompress.js";
import { isLoopbackHost } from "./url.js";

export type Headers = Record<string, string | string[] | undefined>;

/** An answer as it came over the wire. */
export interface Wire {
  status: number;
  headers: Headers;
  /** The body, decompressed. */
  body: Buffer;
  /** Bytes of body received over the wire (before decompression). */
  wireBytes: number;
  /** The body ended early (the connection failed while it streamed). */
  cutShort: boolean;
  /** Milliseconds from sending to the end of the body. */
  ms: number;
}

export interface TransportOptions {
  timeoutMs: number;
  connections: number;
  /** Milliseconds since the epoch; the clock that times the answer. */
  now: () => number;
  /** Removes the key from server text put in a message. */
  scrub: (text: string) => string;
  /** Most bytes of body, decompressed, read from one answer. */
  maxBytes: number;
  proxy?: ProxySettings | undefined;
  /** Timers of the timeout; the real ones by default. */
  timers?: Timers | undefined;
}

const REAL_TIMERS: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Header names that carry the key. */
const KEY_HEADERS = ["Authorization", "X-API-Key"];
/** What pep asks for (the client sets it); every answer in these is read as it streams. */
export const ENCODINGS = "gzip, br, deflate";

function mib(bytes: number): string {
  const m = bytes / 1024 / 1024;
  return Number.isInteger(m) ? `${m}` : m.toFixed(1);
}

/**
 * A DNS lookup that answers only when every address of the name is loopback: the
 * connection that carries a key over plain http to `localhost` or `*.localhost` is made
 * to the address checked here, not to a second answer of the resolver. node:dns loads
 * only then: a run against an IP address never needs it.
 */
export function loopbackOnlyLookup(hostname: string, options: object, callback: (...args: unknown[]) => void): void {
  import("node:dns").then(
    ({ lookup }) => lookupAll(lookup, hostname, options, callback),
    (err: unknown) => callback(err),
  );
}

function lookupAll(
  dnsLookup: typeof import("node:dns").lookup,
  hostname: string,
  options: object,
  callback: (...args: unknown[]) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err);
    const list = addresses as Array<{ address: string; family: number }>;
    const outside = list.find((a) => !isLoopbackHost(a.address));
    if (outside || list.length === 0) {
      const e = Object.assign(new Error(`${hostname} resolves to ${outside?.address ?? "no address"}`), {
        code: "ENOTLOOPBACK",
        address: outside?.address,
      });
      return callback(e);
    }
    if ((options as { all?: boolean }).all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}

export interface Transport {
  send(url: URL, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<Wire>;
  close(): Promise<void>;
}

/** A header's first value. */
export function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** `30`, `1.5`, `0.25`: seconds as a person writes them. */
export function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s}` : s.toFixed(s < 1 ? 2 : 1).replace(/\.?0+$/, "");
}

/**
 * Node's limit on the size of response headers: `--max-http-header-size` when given (on
 * the command line or in NODE_OPTIONS), else its default of 16 KiB. Given to the agent,
 * so that undici need not load node:http to ask.
 */
function maxHeaderSize(): number {
  const flags = `${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`;
  if (!flags.includes("max-http-header-size")) return 16 * 1024;
  return builtin<typeof import("node:http")>("node:http").maxHeaderSize;
}

export function createTransport(options: TransportOptions): Transport {
  const timers = options.timers ?? REAL_TIMERS;
  const routes = router(options);
  const fail = failures(options);
  return {
    async send(url, headers, signal) {
      if (signal?.aborted) throw new InterruptedError();
      const started = options.now();
      const controller = new AbortController();
      let timedOut = false;
      // Real time unless timers are given: the timeout guards a real socket, whatever clock paces retries.
      const timer = timers.setTimeout(() => {
        timedOut = true;
        controller.abort(new Error("timeout"));
      }, options.timeoutMs);
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      const route = routes.dispatcherFor(
        url,
        KEY_HEADERS.some((h) => headers[h] !== undefined),
      );
      const failed = (err: unknown): Error => {
        if (signal?.aborted) return new InterruptedError();
        if (timedOut) return fail.timeout(url, err);
        return fail.network(err, url, route.via);
      };
      try {
        let res: Awaited<ReturnType<typeof undiciRequest>>;
        try {
          const dispatcher = await route.dispatcher;
          res = await undiciRequest(url, { dispatcher, method: "GET", headers, signal: controller.signal });
        } catch (err) {
          throw failed(err);
        }
        const body = await readAnswer(
          res,
          route.via,
          options,
          fail,
          () => signal?.aborted === true || timedOut,
          failed,
        );
        return { ...body, ms: options.now() - started };
      } finally {
        timers.clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
    },
    close: routes.close,
  };
}

/**
 * The dispatcher for each request: a proxy when one applies (undici's ProxyAgent, loaded
 * only then), the agent that checks a name resolves to loopback when the key goes over
 * plain http to a name, else the pool.
 */
function router(options: TransportOptions) {
  const { timeoutMs } = options;
  const proxy = options.proxy ?? NO_PROXY;
  const headerLimit = maxHeaderSize();
  const agent = new Agent({
    connections: options.connections,
    maxHeaderSize: headerLimit,
    connect: { timeout: timeoutMs },
  });
  let loopbackAgent: Agent | undefined;
  const proxies = new Map<string, Promise<Dispatcher>>();
  const viaProxy = (url: URL, via: string, carriesKey: boolean): Promise<Dispatcher> => {
    if (carriesKey && url.protocol === "http:") {
      throw new UsageError(`the API key is not sent over plain http through the proxy ${describeProxy(via)}`, {
        hints: [`to reach ${url.hostname} directly, add it to NO_PROXY (e.g. NO_PROXY=${url.hostname})`],
      });
    }
    let d = proxies.get(via);
    if (!d) {
      d = import("undici").then(
        ({ ProxyAgent }) =>
          new ProxyAgent({
            uri: via,
            connections: options.connections,
            proxyTunnel: false,
            connect: { timeout: timeoutMs },
          }),
      );
      proxies.set(via, d);
    }
    return d;
  };
  return {
    dispatcherFor(
      url: URL,
      carriesKey: boolean,
    ): { via: string | undefined; dispatcher: Dispatcher | Promise<Dispatcher> } {
      const via = proxyFor(url, proxy);
      if (via) return { via, dispatcher: viaProxy(url, via, carriesKey) };
      if (carriesKey && url.protocol === "http:" && isIP(url.hostname.replace(/^\[|\]$/g, "")) === 0) {
        loopbackAgent ??= new Agent({
          connections: options.connections,
          maxHeaderSize: headerLimit,
          connect: { timeout: timeoutMs, lookup: loopbackOnlyLookup } as object,
        });
        return { via, dispatcher: loopbackAgent };
      }
      return { via, dispatcher: agent };
    },
    async close() {
      const all: Array<Promise<void>> = [agent.close()];
      if (loopbackAgent) all.push(loopbackAgent.close());
      for (const d of proxies.values()) all.push(d.then((x) => x.close()).catch(() => undefined));
      await Promise.all(all);
    },
  };
}

/** The errors of the transport: a timeout, a failure that is not an HTTP status, a bad body. */
function failures(options: TransportOptions) {
  const { timeoutMs, scrub, maxBytes } = options;
  const timeout = (url: URL, cause?: unknown) =>
    new NetworkError(
      `no complete answer from ${url.host} within ${seconds(timeoutMs)} s; allow longer with --timeout <seconds>`,
      "timeout",
      { cause },
    );
  const requestIdOf = (headers: Headers): string | undefined => {
    const id = header(headers, "x-request-id");
    return id === undefined ? undefined : scrub(id).slice(0, 200);
  };
  return {
    timeout,
    requestIdOf,
    network: (err: unknown, url: URL, via: string | undefined): Error =>
      networkError(err, url, via, scrub) ?? timeout(url, err),
    body(
      message: string,
      status: number,
      headers: Headers,
      extra: { cutShort?: boolean; cause?: unknown; hints?: string[] } = {},
    ) {
      const e = new ResponseError(message, {
        status,
        requestId: requestIdOf(headers),
        cause: extra.cause,
        cutShort: extra.cutShort,
      });
      if (extra.hints) e.hints.push(...extra.hints);
      return e;
    },
    limitHint: `pep reads at most ${mib(maxBytes)} MiB of one answer; raise it with \`pep config set max_response_mb <n>\` if the API's pages are that large`,
  };
}

/** The answer's coding; throws (the body dropped) for what pep will not read. */
function readable(
  status: number,
  resHeaders: Headers,
  via: string | undefined,
  maxBytes: number,
  fail: ReturnType<typeof failures>,
  drop: () => void,
): { encoding: string; coding: Coding | undefined } {
  if (via && status === 407) {
    drop();
    throw proxyAuthError(via);
  }
  const declared = Number(header(resHeaders, "content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    drop();
    throw fail.body(
      `the answer is ${mib(declared)} MiB, over pep's ${mib(maxBytes)} MiB limit; nothing of it was read`,
      status,
      resHeaders,
      { hints: [fail.limitHint] },
    );
  }
  const encoding = header(resHeaders, "content-encoding") ?? "";
  const coding = codingOf(encoding);
  if (typeof coding === "object") {
    drop();
    throw fail.body(`the answer is encoded as ${coding.unreadable}, which pep cannot read`, status, resHeaders, {
      hints: ["pep reads gzip, br and deflate; try --no-compress"],
    });
  }
  return { encoding, coding };
}

/**
 * Reads an answer: refuses a proxy's 407, a declared or actual size over the limit (of
 * the bytes received, then of the body decompressed) and an encoding pep cannot read;
 * decodes; and says when the body was cut short.
 */
async function readAnswer(
  res: Awaited<ReturnType<typeof undiciRequest>>,
  via: string | undefined,
  options: TransportOptions,
  fail: ReturnType<typeof failures>,
  stopped: () => boolean,
  failed: (err: unknown) => Error,
): Promise<Omit<Wire, "ms">> {
  const { maxBytes } = options;
  const status = res.statusCode;
  const resHeaders = res.headers as Headers;
  const source = res.body as unknown as Readable;
  const drop = () => source.on("error", () => undefined).destroy();
  const { encoding, coding } = readable(status, resHeaders, via, maxBytes, fail, drop);
  const tooLarge = () =>
    fail.body(`the answer is larger than pep's ${mib(maxBytes)} MiB limit; stopped reading it`, status, resHeaders, {
      hints: [fail.limitHint],
    });
  // Read chunk by chunk, so a body cut short still tells how much of it arrived.
  const chunks: Buffer[] = [];
  let wireBytes = 0;
  let cutShort = false;
  try {
    for await (const chunk of source) {
      wireBytes += (chunk as Buffer).length;
      if (wireBytes > maxBytes) {
        drop();
        throw tooLarge();
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (err instanceof ResponseError) throw err;
    if (stopped()) {
      const e = failed(err);
      if (e instanceof NetworkError) e.requestId = fail.requestIdOf(resHeaders);
      throw e;
    }
    cutShort = true;
  }
  const received = Buffer.concat(chunks);
  if (coding === undefined) return { status, headers: resHeaders, body: received, wireBytes, cutShort };
  let body: Buffer;
  try {
    body = decompress(coding, received, maxBytes, cutShort);
  } catch (err) {
    if ((err as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge();
    if (!cutShort) {
      throw fail.body(
        `the answer's ${encoding.trim().toLowerCase()} body is corrupt: it could not be decompressed`,
        status,
        resHeaders,
        {
          cause: err,
          hints: ["try again; if it persists, --no-compress asks the server for an uncompressed answer"],
        },
      );
    }
    body = Buffer.alloc(0);
  }
  return { status, headers: resHeaders, body, wireBytes, cutShort };
}
