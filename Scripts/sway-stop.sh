#!/usr/bin/env bash
# Stops the sway sway-start.sh started in DIR (one killed already is tidied up after).
dir=${1:?usage: sway-stop.sh DIR}
[ -f "$dir/sway.pid" ] && kill "$(cat "$dir/sway.pid")" 2>/dev/null
rm -f "$dir/sway.pid"
# Its runtime folder (sway-start.sh made it outside DIR).
if [ -L "$dir/sway" ]; then rm -rf "$(readlink "$dir/sway")" "$dir/sway"; fi
exit 0
