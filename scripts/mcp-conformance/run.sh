#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, server side)
# against `pep mcp --sandbox --http`, with the baseline of scenarios that need the
# suite's own fixtures (expected-failures.yml). Needs Node 22 or later (the suite's own
# requirement) and `npm run build` first; fetches the suite with npx, so it is not a
# dependency of pep. Usage: bash scripts/mcp-conformance/run.sh [port]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
port="${1:-18765}"
node "$root/bin/pep.js" mcp --sandbox --http --port "$port" 2>"${TMPDIR:-/tmp}/pep-mcp-conformance.err" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  grep -q "serving Streamable HTTP" "${TMPDIR:-/tmp}/pep-mcp-conformance.err" 2>/dev/null && break
  sleep 0.1
done
npx -y @modelcontextprotocol/conformance@0.1.16 server \
  --url "http://127.0.0.1:$port/mcp" \
  --expected-failures "$here/expected-failures.yml"
