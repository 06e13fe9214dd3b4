#!/usr/bin/env bash
# Stops the sway sway-start.sh started in DIR and waits until it is gone (SIGTERM, then SIGKILL:
# see stop-pid.sh); one killed already is tidied up after.
dir=${1:?usage: sway-stop.sh DIR}
status=0
[ -f "$dir/sway.pid" ] && { "$(dirname "$0")/stop-pid.sh" "$(cat "$dir/sway.pid")" || status=1; }
rm -f "$dir/sway.pid"
# Its runtime folder (sway-start.sh made it outside DIR).
if [ -L "$dir/sway" ]; then rm -rf "$(readlink "$dir/sway")" "$dir/sway"; fi
exit $status
