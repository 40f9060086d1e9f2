import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/http/client.js";
import type { ClientEvent } from "../../src/http/client-types.js";
import { ApiError, UsageError, exitCodeFor } from "../../src/core/errors.js";
import { envelope, errorBody, sendJson, startServer, type TestServer } from "../helpers/server.js";

const KEY = "sk_live_0123456789abcdWXYZ";
const version = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

describe("auth header and origin rule", () => {
  const servers: TestServer[] = [];
  const start = async () => {
    const s = await startServer((_req, res) => sendJson(res, 200, envelope({ ok: true })));
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it("sends Bearer by default, with Accept and User-Agent", async () => {
    const srv = await start();
    const client = createClient({ baseUrl: `${srv.url}/v1`, apiKey: KEY });
    await client.request("/vendors").finally(() => client.close());
    const h = srv.requests[0]!.headers;
    expect(h.authorization).toBe(`Bearer ${KEY}`);
    expect(h["x-api-key"]).toBeUndefined();
    expect(h.accept).toBe("application/json");
    expect(h["user-agent"]).toBe(`pepcli/${version}`);
  });

  it("sends X-API-Key when asked", async () => {
    const srv = await start();
    const client = createClient({ baseUrl: `${srv.url}/v1`, apiKey: KEY, authHeader: "x-api-key" });
    await client.request("/vendors").finally(() => client.close());
    const h = srv.requests[0]!.headers;
    expect(h["x-api-key"]).toBe(KEY);
    expect(h.authorization).toBeUndefined();
  });

  it("sends no auth header without a key", async () => {
    const srv = await start();
    const client = createClient({ baseUrl: `${srv.url}/v1` });
    await client.request("/peptides").finally(() => client.close());
    expect(srv.requests[0]!.headers.authorization).toBeUndefined();
    expect(srv.requests[0]!.headers["x-api-key"]).toBeUndefined();
  });

  it("does not send the key to another origin given as a full URL", async () => {
    const api = await start();
    const other = await start();
    for (const authHeader of ["bearer", "x-api-key"] as const) {
      const client = createClient({ baseUrl: `${api.url}/v1`, apiKey: KEY, authHeader });
      try {
        await client.request(`${other.url}/v1/peptides`);
        // localhost is loopback too, but a different origin than 127.0.0.1
        await client.request(`${api.url.replace("127.0.0.1", "localhost")}/v1/peptides`);
        await client.request(`${api.url}/v1/vendors`);
      } finally {
        await client.close();
      }
    }
    expect(other.requests).toHaveLength(2);
    for (const r of other.requests) {
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers["x-api-key"]).toBeUndefined();
    }
    // api got: localhost (no key), 127.0.0.1 (key) per variant
    const withKey = api.requests.filter(
      (r) => r.headers.authorization === `Bearer ${KEY}` || r.headers["x-api-key"] === KEY,
    );
    expect(api.requests).toHaveLength(4);
    expect(withKey.map((r) => r.headers.host)).toEqual([`127.0.0.1:${api.port}`, `127.0.0.1:${api.port}`]);
  });

  it("refuses a key over plain http to a non-loopback host before any request", () => {
    for (const baseUrl of ["http://api.example.com/v1", "http://10.0.0.5:8080/v1"]) {
      let err: unknown;
      try {
        createClient({ baseUrl, apiKey: KEY });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UsageError);
      expect(exitCodeFor(err)).toBe(2);
      expect((err as Error).message).toMatch(/plain http/);
      expect((err as Error).message).toMatch(/https/);
      expect((err as Error).message).not.toContain(KEY);
    }
    // without a key, or over https, it is fine
    expect(() => createClient({ baseUrl: "http://api.example.com/v1" })).not.toThrow();
    expect(() => createClient({ baseUrl: "https://api.example.com/v1", apiKey: KEY })).not.toThrow();
    expect(() => createClient({ baseUrl: "http://localhost:4010/v1", apiKey: KEY })).not.toThrow();
  });

  it("redacts the key in events and keeps it out of errors", async () => {
    const srv = await startServer((_req, res) =>
      sendJson(res, 401, errorBody("invalid_key", `the key ${KEY} is not valid`, "req_9")),
    );
    servers.push(srv);
    for (const authHeader of ["bearer", "x-api-key"] as const) {
      const events: ClientEvent[] = [];
      const client = createClient({
        baseUrl: `${srv.url}/v1`,
        apiKey: KEY,
        authHeader,
        onEvent: (e) => events.push(e),
      });
      const err = await client.request("/vendors").then(
        () => undefined,
        (e: unknown) => e,
      );
      await client.close();
      expect(err).toBeInstanceOf(ApiError);
      expect(exitCodeFor(err)).toBe(3);
      const e = err as ApiError;
      expect(e.message).toBe("the key <redacted> is not valid");
      expect(JSON.stringify(e.envelope)).not.toContain(KEY);
      expect(JSON.stringify(events)).not.toContain(KEY);
      const req = events.find((x) => x.type === "request");
      expect(req?.type === "request" && req.headers).toMatchObject(
        authHeader === "bearer" ? { Authorization: "Bearer ****WXYZ" } : { "X-API-Key": "****WXYZ" },
      );
    }
  });
});
