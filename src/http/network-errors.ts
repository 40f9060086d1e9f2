/**
 * What a failed request says: a transport failure that is not an HTTP status (refused,
 * reset, unresolved, a timeout, a TLS handshake, a proxy) as one NetworkError with the
 * host named and, where it helps, a hint. Credentials of a proxy are never in the text.
 */
import { NetworkError, UsageError } from "../core/errors.js";
import { describeProxy } from "./proxy.js";

/** Words for a TLS failure, by the code Node gives it; undefined when it is not one. */
function tlsProblem(codes: string[], host: string, hostname: string): { message: string; hints: string[] } | undefined {
  const has = (...c: string[]) => c.some((x) => codes.includes(x));
  const caHint =
    "if the server uses a private certificate authority, give its certificate with NODE_EXTRA_CA_CERTS=<file.pem>";
  if (has("ERR_SSL_WRONG_VERSION_NUMBER", "ERR_SSL_PACKET_LENGTH_TOO_LONG", "ERR_SSL_HTTP_REQUEST")) {
    return {
      message: `${host} did not answer in TLS: it may serve plain http on this port`,
      hints: ["check the base URL's scheme and port: https:// for TLS, http:// only for a server on this machine"],
    };
  }
  if (has("CERT_HAS_EXPIRED"))
    return {
      message: `the TLS certificate of ${host} has expired`,
      hints: ["the server's certificate must be renewed; check the machine's clock too"],
    };
  if (has("CERT_NOT_YET_VALID"))
    return { message: `the TLS certificate of ${host} is not valid yet`, hints: ["check the machine's clock"] };
  if (has("ERR_TLS_CERT_ALTNAME_INVALID", "HOSTNAME_MISMATCH")) {
    return {
      message: `the TLS certificate of ${host} is not valid for the name ${hostname}`,
      hints: ["check the host in the base URL: it must be a name the certificate lists"],
    };
  }
  if (
    has(
      "DEPTH_ZERO_SELF_SIGNED_CERT",
      "SELF_SIGNED_CERT_IN_CHAIN",
      "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      "UNABLE_TO_GET_ISSUER_CERT",
      "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
      "CERT_UNTRUSTED",
      "CERT_SIGNATURE_FAILURE",
    )
  ) {
    return {
      message: `the TLS certificate of ${host} is not signed by a certificate authority this machine trusts`,
      hints: [caHint],
    };
  }
  if (has("CERT_REVOKED")) return { message: `the TLS certificate of ${host} has been revoked`, hints: [] };
  if (
    has(
      "ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION",
      "ERR_SSL_UNSUPPORTED_PROTOCOL",
      "ERR_SSL_NO_PROTOCOLS_AVAILABLE",
      "ERR_SSL_TLSV1_ALERT_INSUFFICIENT_SECURITY",
    )
  ) {
    return {
      message: `${host} and pep share no TLS version: the server offers only an old one`,
      hints: ["pep needs TLS 1.2 or later"],
    };
  }
  const other = codes.find((c) => /^(ERR_SSL_|ERR_TLS_|CERT_)/.test(c));
  if (other) return { message: `the TLS handshake with ${host} failed (${other})`, hints: [caHint] };
  return undefined;
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

/** Maps a failure of the transport (not an HTTP status) to an error; undefined for a timeout. */
export function networkError(
  err: unknown,
  url: URL,
  via: string | undefined,
  scrub: (t: string) => string,
): Error | undefined {
  const codes = errorCodes(err);
  const has = (...c: string[]) => c.some((x) => codes.includes(x));
  const host = url.host;
  if (has("ENOTLOOPBACK")) {
    const address = (err as { address?: string }).address ?? errorCause(err, "address");
    return new UsageError(
      `the API key is not sent over plain http to ${url.hostname}: it resolves to ${address ?? "an address"}, which is not this machine`,
      { hints: [`use an https base URL, or http://127.0.0.1:${url.port || 80} for a server on this machine`] },
    );
  }
  if (via) {
    const proxyError = proxyProblem(err, codes, via, host);
    if (proxyError) return proxyError;
  }
  const tls = tlsProblem(codes, host, url.hostname);
  if (tls) return new NetworkError(tls.message, "other", { cause: err, hints: tls.hints });
  if (has("UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT")) return undefined;
  if (has("ECONNREFUSED"))
    return new NetworkError(`could not connect to ${host}: connection refused`, "refused", { cause: err });
  if (has("ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ECONNABORTED"))
    return new NetworkError(`the connection to ${host} was reset`, "reset", { cause: err });
  if (has("ENOTFOUND", "EAI_AGAIN", "EAI_NONAME"))
    return new NetworkError(`could not resolve host ${url.hostname}`, "other", { cause: err });
  const message = err instanceof Error ? err.message : String(err);
  return new NetworkError(scrub(`request to ${host} failed: ${message}`), "other", { cause: err });
}

function errorCause(err: unknown, field: string): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const v = (e as Record<string, unknown>)[field];
    if (typeof v === "string") return v;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function proxyAuthError(via: string): NetworkError {
  return new NetworkError(`the proxy ${describeProxy(via)} asks for authentication (HTTP 407)`, "other", {
    hints: ["give the proxy's user and password in its URL: http://user:password@host:port"],
  });
}

/** A failure of the proxy itself, named by its host and port (never its credentials). */
function proxyProblem(err: unknown, codes: string[], via: string, host: string): NetworkError | undefined {
  const name = describeProxy(via);
  const messages: string[] = [];
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const m = (e as { message?: unknown }).message;
    if (typeof m === "string") messages.push(m);
    e = (e as { cause?: unknown }).cause;
  }
  const text = messages.join(" ");
  if (/Proxy Authentication Required|Proxy response \(407\)/.test(text)) return proxyAuthError(via);
  const tunnel = /Proxy response \((\d{3})\)/.exec(text);
  if (tunnel) {
    return new NetworkError(`the proxy ${name} refused to open a tunnel to ${host} (HTTP ${tunnel[1]})`, "other", {
      cause: err,
    });
  }
  if (codes.includes("ECONNREFUSED"))
    return new NetworkError(`could not connect to the proxy ${name}: connection refused`, "refused", { cause: err });
  if (codes.some((c) => c === "ENOTFOUND" || c === "EAI_AGAIN" || c === "EAI_NONAME")) {
    return new NetworkError(`could not resolve the proxy's host ${name}`, "other", { cause: err });
  }
  return undefined;
}
