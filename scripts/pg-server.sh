#!/usr/bin/env bash
# A throwaway PostgreSQL server for the library's tests and benchmarks, on a free loopback
# port, with its data, socket and log in a temporary folder:
#
#   eval "$(bash scripts/pg-server.sh start)"   # exports PEP_TEST_PG_URL, PEP_TEST_PG_DIR and the roles
#   bash scripts/pg-server.sh stop "$PEP_TEST_PG_DIR"
#
# Finds initdb on PATH or in /usr/lib/postgresql/<n>/bin; without one, installs Debian's
# `postgresql` (apt-get, as root). PostgreSQL refuses to run as root: as root, the server
# runs as the user `postgres` (else `nobody`), who owns the temporary folder. The server
# trusts local connections (loopback only) and skips fsync: it holds test data only.
set -euo pipefail

# The folder holding initdb, pg_ctl and createdb (a link to initdb on PATH is followed).
pg_bin() {
  local d
  if command -v initdb >/dev/null 2>&1; then
    d=$(dirname "$(readlink -f "$(command -v initdb)")")
    [ -x "$d/pg_ctl" ] && [ -x "$d/createdb" ] && { echo "$d"; return; }
  fi
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$d" ] && [ -x "$d/initdb" ] && { echo "$d"; return; }
  return 1
}

install_pg() {
  [ "$(id -u)" -eq 0 ] || { echo "no PostgreSQL found, and installing it needs root" >&2; return 1; }
  echo "installing Debian's postgresql (apt-get)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends postgresql >&2
}

free_port() {
  node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

start() {
  local bin dir user port run
  bin=$(pg_bin) || { install_pg && bin=$(pg_bin); } || { echo "PostgreSQL could not be found or installed" >&2; exit 1; }
  dir=$(mktemp -d "${TMPDIR:-/tmp}/pep-pg.XXXXXX")
  chmod 0755 "$dir"
  run=()
  if [ "$(id -u)" -eq 0 ]; then
    user=postgres
    id "$user" >/dev/null 2>&1 || user=nobody
    chown "$user" "$dir"
    run=(runuser -u "$user" --)
  fi
  port=$(free_port)
  "${run[@]}" "$bin/initdb" -D "$dir/data" -U pep --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  mkdir -p "$dir/sock"
  [ -z "${run[*]}" ] || chown "$user" "$dir/sock"
  "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir/sock -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >&2 || { cat "$dir/server.log" >&2; exit 1; }
  "${run[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U pep peptest
  # The roles of a team database (docs/library.md): the tests make their libraries as the
  # owner and read them as the reader, which has only CONNECT, USAGE and SELECT.
  "${run[@]}" "$bin/psql" -q -h 127.0.0.1 -p "$port" -U pep -d peptest -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE pep_owner LOGIN" -c "CREATE ROLE pep_reader LOGIN" \
    -c "REVOKE ALL ON DATABASE peptest FROM PUBLIC" \
    -c "GRANT CONNECT, CREATE ON DATABASE peptest TO pep_owner" \
    -c "GRANT CONNECT ON DATABASE peptest TO pep_reader" >&2
  echo "export PEP_TEST_PG_URL=postgres://pep@127.0.0.1:$port/peptest"
  echo "export PEP_TEST_PG_OWNER=pep_owner"
  echo "export PEP_TEST_PG_READER=pep_reader"
  echo "export PEP_TEST_PG_DIR=$dir"
}

stop() {
  local dir=$1 bin run=()
  [ -d "$dir/data" ] || return 0
  bin=$(pg_bin)
  [ "$(id -u)" -eq 0 ] && run=(runuser -u "$(stat -c %U "$dir")" --)
  "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:?the folder start printed (PEP_TEST_PG_DIR)}" ;;
  *)
    echo "usage: $0 start | stop <dir>" >&2
    exit 2
    ;;
esac
