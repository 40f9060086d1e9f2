/**
 * The transport: one GET through a keep-alive undici pool, its body read in full, and
 * every failure of the connection (not of an HTTP status) as a NetworkError. It knows
 * nothing of the API's JSON: `decode.ts` reads what this brings back.
 */
import { Agent, request as undiciRequest } from "undici";
import { InterruptedError, NetworkError } from "../errors.js";

export type Headers = Record<string, string | string[] | undefined>;

/** An answer as it came over the wire. */
export interface Wire {
  status: number;
  headers: Headers;
  body: Buffer;
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

function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    e = (e as { cause?: unknown }).cause;
  }
  return codes;
}

export function createTransport(options: TransportOptions): Transport {
  const { timeoutMs, now, scrub } = options;
  const agent = new Agent({ connections: options.connections, connect: { timeout: timeoutMs } });

  const timeoutError = (url: URL, cause?: unknown) =>
    new NetworkError(
      `no complete answer from ${url.host} within ${seconds(timeoutMs)} s; allow longer with --timeout <seconds>`,
      "timeout",
      { cause },
    );

  /** Maps a failure of the transport (not an HTTP status) to a NetworkError. */
  const networkError = (err: unknown, url: URL): NetworkError => {
    const codes = errorCodes(err);
    const has = (...c: string[]) => c.some((x) => codes.includes(x));
    const host = url.host;
    if (has("UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT")) {
      return timeoutError(url, err);
    }
    if (has("ECONNREFUSED")) return new NetworkError(`could not connect to ${host}: connection refused`, "refused", { cause: err });
    if (has("ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ECONNABORTED")) {
      return new NetworkError(`the connection to ${host} was reset`, "reset", { cause: err });
    }
    if (has("ENOTFOUND", "EAI_AGAIN", "EAI_NONAME")) {
      return new NetworkError(`could not resolve host ${url.hostname}`, "other", { cause: err });
    }
    const message = err instanceof Error ? err.message : String(err);
    return new NetworkError(scrub(`request to ${host} failed: ${message}`), "other", { cause: err });
  };

  return {
    async send(url, headers, signal) {
      if (signal?.aborted) throw new InterruptedError();
      const started = now();
      const controller = new AbortController();
      let timedOut = false;
      // Real time on purpose: the timeout guards a real socket, whatever clock paces retries.
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new Error("timeout"));
      }, timeoutMs);
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      const failed = (err: unknown): Error => {
        if (signal?.aborted) return new InterruptedError();
        if (timedOut) return timeoutError(url, err);
        return networkError(err, url);
      };
      try {
        let res: Awaited<ReturnType<typeof undiciRequest>>;
        try {
          res = await undiciRequest(url, { dispatcher: agent, method: "GET", headers, signal: controller.signal });
        } catch (err) {
          throw failed(err);
        }
        const resHeaders = res.headers as Headers;
        // Read chunk by chunk, so a body cut short still tells how much of it arrived.
        const chunks: Buffer[] = [];
        let cutShort = false;
        try {
          for await (const chunk of res.body) chunks.push(chunk as Buffer);
        } catch (err) {
          if (signal?.aborted || timedOut) {
            const e = failed(err);
            if (e instanceof NetworkError) e.requestId = header(resHeaders, "x-request-id");
            throw e;
          }
          cutShort = true;
        }
        return { status: res.statusCode, headers: resHeaders, body: Buffer.concat(chunks), cutShort, ms: now() - started };
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
    },
    close() {
      return agent.close();
    },
  };
}
