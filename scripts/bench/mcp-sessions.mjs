// Memory of `pep mcp --http` under a flood of initializes that never DELETE: the
// server's resident set after every `step` sessions, with the cap given.
// Usage: node scripts/bench/mcp-sessions.mjs [--max-sessions N] [--count N] [--step N]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? def : Number(process.argv[i + 1]);
};
const max = arg("--max-sessions", 64);
const count = arg("--count", 2000);
const step = arg("--step", 250);
const token = "b".repeat(32);
const child = spawn(
  process.execPath,
  ["bin/pep.js", "mcp", "--sandbox", "--http", "--port", "0", "--max-sessions", String(max)],
  {
    env: { ...process.env, PEP_MCP_TOKEN: token },
    stdio: ["ignore", "ignore", "pipe"],
  },
);
const url = await new Promise((resolve) => {
  let err = "";
  child.stderr.on("data", (c) => {
    err += c;
    const m = /serving Streamable HTTP at (\S+)/.exec(err);
    if (m) resolve(m[1]);
  });
});
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))[1]) / 1024;
const init = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
});
const headers = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  Authorization: `Bearer ${token}`,
};
console.log(`max-sessions ${max}: sessions opened, RSS MiB`);
console.log(`0\t${rss().toFixed(1)}`);
for (let i = 1; i <= count; i++) {
  const res = await fetch(url, { method: "POST", headers, body: init });
  await res.text();
  if (i % step === 0) console.log(`${i}\t${rss().toFixed(1)}`);
}
child.kill("SIGTERM");
