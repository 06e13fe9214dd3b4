#!/usr/bin/env bash
# Stops the PulseAudio server started by pulse-start.sh DIR, by its PID.
dir=${1:?usage: pulse-stop.sh DIR}
[ -f "$dir/pulse.pid" ] || exit 0
exec "$(dirname "$0")/stop-pid.sh" "$(cat "$dir/pulse.pid")"
