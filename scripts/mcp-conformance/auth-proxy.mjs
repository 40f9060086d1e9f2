// A loopback proxy for the conformance suite, which cannot send headers of its own:
// it adds `Authorization: Bearer <token>` to every request and passes everything else
// through as it came (the Host header too, so the DNS-rebinding scenario still meets
// pep's Host check), streaming answers back (SSE).
// Usage: node auth-proxy.mjs <listen port> <pep port> <token>
import http from "node:http";

const [listenPort, targetPort, token] = process.argv.slice(2);
const server = http.createServer((req, res) => {
  const upstream = http.request(
    {
      host: "127.0.0.1",
      port: Number(targetPort),
      method: req.method,
      path: req.url,
      headers: { ...req.headers, authorization: `Bearer ${token}` },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      answer.pipe(res);
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  res.on("close", () => upstream.destroy());
  req.pipe(upstream);
});
server.listen(Number(listenPort), "127.0.0.1", () => console.error(`auth proxy on ${listenPort} -> ${targetPort}`));
