#!/usr/bin/env bash
# Stops a private nginx started by nginx-start.sh DIR, and waits for it to go.
set -uo pipefail
dir=${1:?usage: nginx-stop.sh DIR}
[ -s "$dir/nginx.pid" ] || exit 0
pid=$(cat "$dir/nginx.pid")
kill -QUIT "$pid" 2>/dev/null || exit 0
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.02; done
kill -KILL "$pid" 2>/dev/null
exit 0
