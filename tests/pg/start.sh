#!/usr/bin/env bash
# Start a throwaway PostgreSQL cluster on 127.0.0.1 for the history tests (Debian's `postgresql` package).
#
#   eval "$(bash tests/pg/start.sh)"     # exports HOSTLINT_TEST_PG_URL and HOSTLINT_TEST_PG_DIR
#   ...tests...
#   bash tests/pg/stop.sh "$HOSTLINT_TEST_PG_DIR"
#
# Usage: start.sh [DIR]. The cluster lives in DIR (default: a new temporary folder), listens only on
# 127.0.0.1 on a free port, trusts local connections (it is a test server), and runs as the `postgres`
# user when started as root (initdb refuses root). Prints shell `export` lines; the log is DIR/log.
set -euo pipefail

bindir=${PG_BINDIR:-}
if [[ -z "$bindir" ]]; then
  for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [[ -x "$candidate/initdb" ]]; then bindir=$candidate; break; fi
  done
fi
if [[ -z "$bindir" ]]; then
  if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
    bindir=$(dirname "$(command -v initdb)")
  else
    echo "start.sh: no initdb/pg_ctl (install Debian's postgresql package)" >&2
    exit 2
  fi
fi

dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/hostlint-pg.XXXXXX")}
mkdir -p "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

run=()
if [[ $(id -u) -eq 0 ]]; then
  user=postgres
  if ! id "$user" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
  fi
  chown -R "$user" "$dir"
  chmod 700 "$dir"
  run=(runuser -u "$user" --)
fi

"${run[@]}" "$bindir/initdb" -D "$dir/data" -U hostlint --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 || {
  cat "$dir/initdb.log" >&2
  exit 1
}
"${run[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 start \
  -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories='$dir' -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  >/dev/null || {
  cat "$dir/log" >&2
  exit 1
}

echo "export HOSTLINT_TEST_PG_URL=postgresql+psycopg://hostlint@127.0.0.1:$port/postgres"
echo "export HOSTLINT_TEST_PG_DIR=$dir"
