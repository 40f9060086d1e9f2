/**
 * A real HTTP proxy on 127.0.0.1 (port 0) for tests: it forwards absolute-form requests
 * (`GET http://host/path`) and opens CONNECT tunnels, and records what it saw: each
 * request line and its headers, and every byte that passed through it in the clear
 * (a tunnel's bytes are recorded too, so a test can check that TLS hid the key).
 *
 *   const proxy = await startProxy({ auth: "user:pass" });   // 407 without it
 *   proxy.url = "http://127.0.0.1:<port>", proxy.seen, proxy.bytes()
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";

export interface ProxySeen {
  method: string;
  /** The request target: `http://host/path` when forwarded, `host:port` for CONNECT. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface TestProxy {
  url: string;
  port: number;
  seen: ProxySeen[];
  /** Everything that passed through, both directions, as latin1 text. */
  bytes(): string;
  close(): Promise<void>;
}

export async function startProxy(options: { auth?: string } = {}): Promise<TestProxy> {
  const seen: ProxySeen[] = [];
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  const expected = options.auth ? `Basic ${Buffer.from(options.auth).toString("base64")}` : undefined;
  const authorized = (headers: IncomingHttpHeaders) =>
    expected === undefined || headers["proxy-authorization"] === expected;

  const server = createServer((req, res) => {
    chunks.push(Buffer.from(`${req.method} ${req.url}\r\n${JSON.stringify(req.headers)}\r\n`, "latin1"));
    seen.push({ method: req.method ?? "", target: req.url ?? "", headers: req.headers });
    if (!authorized(req.headers)) {
      res
        .writeHead(407, { "proxy-authenticate": 'Basic realm="test"', "content-type": "text/plain" })
        .end("proxy auth required");
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("absolute URL expected");
      return;
    }
    const headers = { ...req.headers };
    delete headers["proxy-authorization"];
    delete headers["proxy-connection"];
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.on("data", (c: Buffer) => chunks.push(c));
        up.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end("upstream failed"));
    upstream.end();
  });
  server.on("connect", (req, client: Socket, head: Buffer) => {
    chunks.push(Buffer.from(`${req.method} ${req.url}\r\n${JSON.stringify(req.headers)}\r\n`, "latin1"));
    seen.push({ method: req.method ?? "", target: req.url ?? "", headers: req.headers });
    sockets.add(client);
    if (!authorized(req.headers)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const [host, port] = (req.url ?? "").split(":");
    const upstream = connect(Number(port), host === "localhost" ? "127.0.0.1" : host!, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      client.on("data", (c: Buffer) => chunks.push(c));
      upstream.on("data", (c: Buffer) => chunks.push(c));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    sockets.add(upstream);
    upstream.on("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"));
    client.on("error", () => upstream.destroy());
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    bytes: () => Buffer.concat(chunks).toString("latin1"),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
