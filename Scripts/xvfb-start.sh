#!/usr/bin/env bash
# Starts Xvfb in DIR on the first free display and prints the DISPLAY value once it accepts clients.
# Usage: xvfb-start.sh DIR [WxHxDEPTH]. Stop it with xvfb-stop.sh DIR.
set -euo pipefail
dir=${1:?usage: xvfb-start.sh DIR [GEOMETRY]}
geometry=${2:-1920x1080x24}
mkdir -p "$dir"
rm -f "$dir/display"
# -displayfd reports the display number only when the server is ready.
Xvfb -displayfd 3 -screen 0 "$geometry" -nolisten tcp -noreset 3>"$dir/display" >"$dir/xvfb.log" 2>&1 &
echo $! > "$dir/xvfb.pid"
for _ in $(seq 1 400); do
  if [ -s "$dir/display" ]; then echo ":$(tr -d '\n' < "$dir/display")"; exit 0; fi
  if ! kill -0 "$(cat "$dir/xvfb.pid")" 2>/dev/null; then break; fi
  sleep 0.025
done
echo "xvfb-start: Xvfb did not start; see $dir/xvfb.log" >&2
exit 1
