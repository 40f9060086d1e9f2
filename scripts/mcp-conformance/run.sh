#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, server side),
# active and pending scenarios, against `pep mcp --sandbox --http`, with the baseline of
# scenarios pep cannot pass and why (expected-failures.yml). pep requires a bearer token
# on every request and the suite sends none, so the suite talks to a loopback proxy that
# adds it (auth-proxy.mjs). Needs Node 22 or later (the suite's own requirement) and
# `npm run build` first; fetches the suite with npx, so it is not a dependency of pep.
# Usage: bash scripts/mcp-conformance/run.sh [port]   (the proxy's port, pep's the next;
# free loopback ports by default, so that two runs on one machine do not meet)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
free_port() {
  node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
port="${1:-$(free_port)}"
pep_port=$([ -n "${1:-}" ] && echo $((port + 1)) || free_port)
token="conformance-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
err=$(mktemp "${TMPDIR:-/tmp}/pep-mcp-conformance.XXXXXX")
PEP_MCP_TOKEN="$token" node "$root/bin/pep.js" mcp --sandbox --http --port "$pep_port" 2>"$err" &
pid=$!
node "$here/auth-proxy.mjs" "$port" "$pep_port" "$token" &
proxy=$!
trap 'kill "$pid" "$proxy" 2>/dev/null || true; rm -f "$err"' EXIT
for _ in $(seq 50); do
  grep -q "serving Streamable HTTP" "$err" 2>/dev/null && break
  sleep 0.1
done
npx -y @modelcontextprotocol/conformance@0.1.16 server \
  --url "http://127.0.0.1:$port/mcp" \
  --suite all \
  --expected-failures "$here/expected-failures.yml"
