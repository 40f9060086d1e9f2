/**
 * Decoding: an answer as it came over the wire (`transport.ts`) becomes the API's data
 * or a typed error. The status, the JSON, the envelope and the rate-limit headers are
 * read here; every fact a wrapper needs later is a declared field of the result or of
 * the error (`rateLimit`, `cutShort`).
 */
import { parseJsonExact } from "../core/exact-number.js";
import { ApiError, type ApiErrorBody, ResponseError } from "../core/errors.js";
import { jsonErrorReason } from "../core/json-reason.js";
import { parseError, parseSuccess } from "./envelope.js";
import { parseRateLimit, parseRetryAfter } from "./retry.js";
import { type Headers, header, type Wire } from "./transport.js";
import type { ApiResponse } from "./client-types.js";

/** A decoded answer, with what the ETag cache needs to store it. */
export interface Received extends ApiResponse {
  /** The body as text (empty for a 304). */
  text: string;
  /** The body or the ETag holds the key: such an answer is never stored. */
  echoesKey: boolean;
}

export interface DecodeOptions {
  /** Milliseconds since the epoch, for `Retry-After` dates and epoch resets. */
  now: number;
  /** The request was conditional (`If-None-Match`): a 304 is an answer, not an error. */
  conditional: boolean;
  apiKey: string | undefined;
  /** Removes the key from server text put in a message. */
  scrub: (text: string) => string;
}

/** What every failure of one answer carries: its status, its request id, its rate limit. */
interface Failing {
  status: number;
  requestId: string | undefined;
  fail: <E extends ApiError | ResponseError>(err: E) => E;
}

/** The wire answer as data, or the typed error it stands for. */
export function decode(wire: Wire, options: DecodeOptions): Received {
  const { status, headers } = wire;
  const { scrub, apiKey } = options;
  const rateLimit = parseRateLimit(
    {
      limit: header(headers, "ratelimit-limit"),
      remaining: header(headers, "ratelimit-remaining"),
      reset: header(headers, "ratelimit-reset"),
    },
    options.now,
  );
  const requestId = requestIdOf(headers, scrub);
  const etag = header(headers, "etag");
  const fail = <E extends ApiError | ResponseError>(err: E): E => {
    err.rateLimit = rateLimit;
    return err;
  };
  const failing: Failing = { status, requestId, fail };

  if (status === 304) return notModified(failing, options.conditional, etag, rateLimit);

  const text = wire.body.toString("utf8");
  if (status < 200 || status > 299) throw fail(apiError(status, headers, text, wire.cutShort, options));
  checkWhole(wire, failing);
  const body = parseJson(wire, text, failing, scrub);
  const parsed = parseSuccess(body);
  if (!parsed.ok) {
    throw fail(
      new ResponseError(scrub(`the response was not the API's JSON envelope: ${parsed.reason}`), { status, requestId }),
    );
  }
  const echoesKey = apiKey !== undefined && (text.includes(apiKey) || (etag !== undefined && scrub(etag) !== etag));
  const { data, pagination, meta } = parsed.value;
  const bytes = wire.wireBytes;
  return { status, data, pagination, meta, body, requestId, etag, rateLimit, fromCache: false, bytes, text, echoesKey };
}

/** A 304: the cached body stands, unless the request was not conditional (then it is an error). */
function notModified(
  { status, requestId, fail }: Failing,
  conditional: boolean,
  etag: string | undefined,
  rateLimit: Received["rateLimit"],
): Received {
  if (!conditional) {
    throw fail(
      new ResponseError("the server answered 304 Not Modified to a request that was not conditional", {
        status,
        requestId,
      }),
    );
  }
  return {
    status,
    data: undefined,
    pagination: undefined,
    meta: {},
    body: undefined,
    requestId,
    etag,
    rateLimit,
    fromCache: true,
    bytes: 0,
    text: "",
    echoesKey: false,
  };
}

/** A success body must be whole (as long as `Content-Length` said) and not empty. */
function checkWhole(wire: Wire, { status, requestId, fail }: Failing): void {
  const bytes = wire.wireBytes;
  const declaredHeader = header(wire.headers, "content-length");
  const declared = declaredHeader === undefined ? Number.NaN : Number(declaredHeader);
  if (wire.cutShort || (Number.isFinite(declared) && declared > bytes)) {
    const of = Number.isFinite(declared) && declared > bytes ? ` of ${declared}` : "";
    throw fail(
      new ResponseError(`the response body was cut short (${bytes}${of} bytes received)`, {
        status,
        requestId,
        cutShort: true,
      }),
    );
  }
  if (wire.body.length === 0)
    throw fail(new ResponseError(`the server answered HTTP ${status} with an empty body`, { status, requestId }));
}

/** The body as JSON; a JSON body that ends early is told as cut short, anything else as not JSON. */
function parseJson(wire: Wire, text: string, { status, requestId, fail }: Failing, scrub: (t: string) => string) {
  try {
    return parseJsonExact(text);
  } catch (err) {
    const contentType = contentTypeOf(wire.headers);
    const reason = jsonErrorReason(err);
    const endedEarly = /JSON/i.test(contentType) && /end of (JSON )?input|Unterminated/i.test(reason);
    throw fail(
      endedEarly
        ? new ResponseError(`the response body was cut short (${wire.wireBytes} bytes received)`, {
            status,
            requestId,
            cause: err,
            cutShort: true,
          })
        : new ResponseError(scrub(`the response was not valid JSON: ${truncate(reason)} (${contentType})`), {
            status,
            requestId,
            cause: err,
          }),
    );
  }
}

/** Longest server text put in a message; past it the text is cut and the cut said. */
export const MAX_SERVER_TEXT = 2000;

/** Server text cut to `max` characters, saying how much was left out. */
export function cutMessage(text: string, max = MAX_SERVER_TEXT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (cut: ${text.length - max} more characters)`;
}

/** The `X-Request-Id` header, without the key, at a readable length. */
export function requestIdOf(headers: Headers, scrub: (s: string) => string): string | undefined {
  const id = header(headers, "x-request-id");
  return id === undefined ? undefined : cutMessage(scrub(id), 200);
}

function contentTypeOf(headers: Headers): string {
  return (header(headers, "content-type") ?? "no content type").split(";")[0]!.trim();
}

/** Turns a non-2xx answer into an ApiError, whatever its body looks like. */
function apiError(
  status: number,
  headers: Headers,
  text: string,
  bodyCutShort: boolean,
  options: DecodeOptions,
): ApiError {
  const { scrub } = options;
  const retryAfter = parseRetryAfter(header(headers, "retry-after"), options.now);
  const headerRequestId = requestIdOf(headers, scrub);
  let json: unknown;
  let isJson = false;
  try {
    json = JSON.parse(text);
    isJson = true;
  } catch {
    /* not JSON: described below */
  }
  const envelope = isJson ? parseError(json) : undefined;
  if (envelope) {
    const clean = scrubDeep(envelope, scrub) as { error: ApiErrorBody };
    return new ApiError({
      status,
      message: clean.error.message === undefined ? undefined : cutMessage(clean.error.message),
      code: clean.error.code === undefined ? undefined : cutMessage(clean.error.code, 200),
      requestId: clean.error.request_id === undefined ? headerRequestId : cutMessage(clean.error.request_id, 200),
      envelope: clean,
      retryAfter,
    });
  }
  const location = status >= 300 && status < 400 ? header(headers, "location") : undefined;
  const tooLong = status === 414 || status === 431;
  const message = location
    ? scrub(`the server redirects to ${truncate(location)}; pep does not follow redirects, so check the base URL`)
    : bodyCutShort
      ? `the server answered HTTP ${status} and the body was cut short`
      : tooLong
        ? `the server refused the request as too long (HTTP ${status}): the cursor or query is longer than it accepts`
        : isJson
          ? `the server answered HTTP ${status} without an error envelope`
          : text.trim() === ""
            ? `the server answered HTTP ${status} with an empty body`
            : `the server answered HTTP ${status} with a non-JSON body (${contentTypeOf(headers)})`;
  return new ApiError({ status, message, requestId: headerRequestId, retryAfter });
}

function scrubDeep(v: unknown, scrub: (s: string) => string): unknown {
  if (typeof v === "string") return scrub(v);
  if (Array.isArray(v)) return v.map((x) => scrubDeep(x, scrub));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrubDeep(x, scrub)]));
  return v;
}

function truncate(s: string, max = 160): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
