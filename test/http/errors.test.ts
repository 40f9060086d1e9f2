import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/http/client.js";
import { ApiError, InterruptedError, NetworkError, ResponseError, exitCodeFor } from "../../src/core/errors.js";
import type { Client } from "../../src/http/client-types.js";
import {
  delay,
  envelope,
  errorBody,
  resetConnection,
  sendJson,
  sendText,
  sendTruncated,
  startServer,
  unusedPort,
  type Handler,
  type TestServer,
} from "../helpers/server.js";
import { ManualTimers } from "./fake-clock.js";

let srv: TestServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await srv?.close();
  client = undefined;
  srv = undefined;
});

async function failureOf(
  handler: Handler,
  opts: { timeoutMs?: number; retries?: number; timers?: ManualTimers } = {},
): Promise<unknown> {
  srv = await startServer(handler);
  client = createClient({ baseUrl: `${srv.url}/v1`, retries: 0, ...opts });
  return client.request("/peptides").then(
    (r) => {
      throw new Error(`expected a failure, got HTTP ${r.status}`);
    },
    (e: unknown) => e,
  );
}

describe("HTTP error statuses", () => {
  const cases = [
    [400, "invalid_parameter", 2],
    [401, "unauthorized", 3],
    [403, "forbidden", 3],
    [404, "not_found", 4],
    [429, "rate_limited", 5],
    [500, "internal", 6],
    [503, "unavailable", 6],
  ] as const;
  for (const [status, code, exit] of cases) {
    it(`maps ${status} to an ApiError with exit ${exit}`, async () => {
      const err = await failureOf((_r, res) =>
        sendJson(res, status, errorBody(code, `message for ${status}`, `req_${status}`), { "retry-after": "3" }),
      );
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      expect(e.status).toBe(status);
      expect(e.code).toBe(code);
      expect(e.message).toBe(`message for ${status}`);
      expect(e.requestId).toBe(`req_${status}`);
      expect(e.envelope).toEqual(errorBody(code, `message for ${status}`, `req_${status}`));
      expect(e.retryAfter).toBe(3);
      expect(exitCodeFor(e)).toBe(exit);
      expect(e.describe()).toBe(`message for ${status} (HTTP ${status}, ${code}, request req_${status})`);
    });
  }

  it("takes the request id from the header when the envelope has none", async () => {
    const err = await failureOf((_r, res) =>
      sendJson(res, 404, { error: { code: "not_found", message: "no such peptide" } }, { "x-request-id": "hdr_1" }),
    );
    expect(err).toMatchObject({ status: 404, requestId: "hdr_1", message: "no such peptide" });
  });

  it("maps a 502 HTML page to an ApiError naming the content type", async () => {
    const err = await failureOf((_r, res) =>
      sendText(res, 502, "<html><body>Bad gateway</body></html>", "text/html; charset=utf-8", {
        "x-request-id": "gw_1",
      }),
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe("the server answered HTTP 502 with a non-JSON body (text/html)");
    expect(err).toMatchObject({ status: 502, requestId: "gw_1", envelope: undefined, code: undefined });
    expect(exitCodeFor(err)).toBe(6);
  });

  it("maps JSON that is not an error envelope", async () => {
    const err = await failureOf((_r, res) => sendJson(res, 500, { oops: true }));
    expect((err as ApiError).message).toBe("the server answered HTTP 500 without an error envelope");
  });
});

describe("2xx that is not the API's JSON", () => {
  it("non-JSON 200 is a ResponseError (exit 6)", async () => {
    const err = await failureOf((_r, res) => sendText(res, 200, "<html>hello</html>", "text/html"));
    expect(err).toBeInstanceOf(ResponseError);
    expect((err as Error).message).toMatch(/^the response was not valid JSON: .*\(text\/html\)$/);
    expect(exitCodeFor(err)).toBe(6);
  });

  it("JSON without the envelope is a ResponseError", async () => {
    const err = await failureOf((_r, res) => sendJson(res, 200, [1, 2, 3]));
    expect(err).toBeInstanceOf(ResponseError);
    expect((err as Error).message).toMatch(/not the API's JSON envelope/);
  });

  it("a body cut short by the server hanging up is a ResponseError", async () => {
    const body = JSON.stringify(envelope(Array.from({ length: 50 }, (_, i) => ({ id: i }))));
    const err = await failureOf((_r, res) => sendTruncated(res, 200, body, 40));
    expect(err).toBeInstanceOf(ResponseError);
    expect((err as Error).message).toMatch(/the response body was cut short/);
    expect(exitCodeFor(err)).toBe(6);
  });

  it("truncated JSON with an honest length is reported as cut short", async () => {
    const err = await failureOf((_r, res) => sendText(res, 200, '{"data":[{"id":1},', "application/json"));
    expect(err).toBeInstanceOf(ResponseError);
    expect((err as Error).message).toMatch(/the response body was cut short/);
  });
});

describe("network failures", () => {
  it("reset connection", async () => {
    const err = await failureOf((_r, res) => resetConnection(res));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe("reset");
    expect(exitCodeFor(err)).toBe(6);
  });

  it("refused connection", async () => {
    const port = await unusedPort();
    client = createClient({ baseUrl: `http://127.0.0.1:${port}/v1`, retries: 0 });
    const err = await client.request("/peptides").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe("refused");
    expect((err as Error).message).toBe(`could not connect to 127.0.0.1:${port}: connection refused`);
  });

  it("times out waiting for the headers, naming the seconds and --timeout", async () => {
    // The server never answers; the timeout runs out once it has the request.
    const timers = new ManualTimers();
    const err = await failureOf(
      () => {
        timers.fire();
      },
      { timeoutMs: 150, timers },
    );
    expect(timers.set).toEqual([150]);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe("timeout");
    expect((err as Error).message).toMatch(/0\.15 s/);
    expect((err as Error).message).toMatch(/--timeout/);
  });

  it("times out while the body trickles in", async () => {
    const timers = new ManualTimers();
    let wrote: () => void = () => {};
    const started = new Promise<void>((r) => {
      wrote = r;
    });
    const failure = failureOf(
      (_r, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": 100 });
        res.write('{"data":', () => wrote());
      },
      { timeoutMs: 200, timers },
    );
    // The headers and part of the body are in; the rest never comes.
    await started;
    await delay(20);
    expect(timers.waiting).toBe(1);
    timers.fire();
    const err = await failure;
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe("timeout");
  });

  it("an aborted signal rejects quickly with InterruptedError", async () => {
    const ac = new AbortController();
    // Aborted once the server has the request, which it never answers.
    srv = await startServer(() => ac.abort());
    client = createClient({ baseUrl: `${srv.url}/v1`, retries: 3 });
    const t0 = Date.now();
    const err = await client.request("/peptides", { signal: ac.signal }).catch((e: unknown) => e);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(exitCodeFor(err)).toBe(130);
    expect(srv.requests).toHaveLength(1);
  });

  it("an already aborted signal sends nothing", async () => {
    srv = await startServer((_r, res) => sendJson(res, 200, envelope([])));
    client = createClient({ baseUrl: `${srv.url}/v1` });
    const err = await client.request("/peptides", { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(srv.requests).toHaveLength(0);
  });
});
