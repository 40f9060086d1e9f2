// A sandbox in its own process for the benchmarks, with a counting HTTP proxy in front.
// Started by sandbox.mjs with fork(); options come as one JSON argument. It sends
// { baseUrl, proxyUrl } when listening, answers { cmd: "stats" } and { cmd: "reset" },
// and exits when the parent disconnects.
//
// The proxy counts what a client sees on the wire: the bytes read from and written to
// each client socket (headers included), and the arrival time and status of every
// request. With alignWindows, the rate-limit windows start at the first request instead
// of on the epoch clock, so every run meets the same window phase and the minimum time
// the limit allows is exact.
import http from "node:http";
import { pathToFileURL } from "node:url";

const opts = JSON.parse(process.argv[2] ?? "{}");
const { startSandbox } = await import(pathToFileURL(opts.sandboxModule).href);

let t0;
const now = opts.alignWindows
  ? () => {
      t0 ??= Date.now();
      return Date.now() - t0;
    }
  : Date.now;
const sandbox = await startSandbox({
  port: 0,
  scale: opts.scale ?? 1,
  now,
  ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}),
  ...(opts.bandwidthKBps ? { bandwidthKBps: opts.bandwidthKBps } : {}),
  ...(opts.latencyMs ? { latencyMs: opts.latencyMs } : {}),
});
const target = new URL(sandbox.baseUrl);
const upstream = new http.Agent({ keepAlive: true });

let requests = [];
let closedIn = 0;
let closedOut = 0;
const live = new Set();
const base = { in: 0, out: 0 };

const proxy = http.createServer((req, res) => {
  const entry = { t: performance.timeOrigin + performance.now(), path: req.url, status: 0 };
  requests.push(entry);
  const up = http.request(
    {
      host: target.hostname,
      port: target.port,
      path: req.url,
      method: req.method,
      headers: req.headers,
      agent: upstream,
    },
    (upRes) => {
      entry.status = upRes.statusCode;
      res.writeHead(upRes.statusCode, upRes.rawHeaders);
      upRes.pipe(res);
    },
  );
  up.on("error", () => {
    entry.status = 502;
    res.destroy();
  });
  req.pipe(up);
});
proxy.on("connection", (socket) => {
  live.add(socket);
  socket.on("close", () => {
    live.delete(socket);
    closedIn += socket.bytesRead;
    closedOut += socket.bytesWritten;
  });
});
await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const proxyUrl = `http://127.0.0.1:${proxy.address().port}/v1`;

function totals() {
  let bytesIn = closedIn;
  let bytesOut = closedOut;
  for (const s of live) {
    bytesIn += s.bytesRead;
    bytesOut += s.bytesWritten;
  }
  return { bytesIn, bytesOut };
}

process.on("message", (msg) => {
  if (msg?.cmd === "stats") {
    const { bytesIn, bytesOut } = totals();
    // bytesOut: what the client received; bytesIn: what it sent.
    process.send({
      id: msg.id,
      requests,
      received: bytesOut - base.out,
      sent: bytesIn - base.in,
      served: sandbox.requestCount(),
    });
  } else if (msg?.cmd === "reset") {
    const { bytesIn, bytesOut } = totals();
    base.in = bytesIn;
    base.out = bytesOut;
    requests = [];
    process.send({ id: msg.id });
  }
});
process.on("disconnect", async () => {
  proxy.close();
  proxy.closeAllConnections();
  await sandbox.close();
  process.exit(0);
});
process.send({ ready: true, baseUrl: sandbox.baseUrl, proxyUrl });
