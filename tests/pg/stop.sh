#!/usr/bin/env bash
# Stop a cluster started by start.sh and remove its folder: stop.sh DIR.
set -euo pipefail
dir=${1:?usage: stop.sh DIR}
bindir=${PG_BINDIR:-}
if [[ -z "$bindir" ]]; then
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r | head -n 1)
fi
pg_ctl=${bindir:+$bindir/}pg_ctl
if [[ $(id -u) -eq 0 ]]; then
  runuser -u postgres -- "$pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
else
  "$pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
fi
rm -rf "$dir"
