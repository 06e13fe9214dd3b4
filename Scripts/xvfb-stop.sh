#!/usr/bin/env bash
# Stops the Xvfb started by xvfb-start.sh DIR, by its PID.
dir=${1:?usage: xvfb-stop.sh DIR}
[ -f "$dir/xvfb.pid" ] || exit 0
exec "$(dirname "$0")/stop-pid.sh" "$(cat "$dir/xvfb.pid")"
