#!/usr/bin/env bash
# Idle CPU of the `decibar live` window while digital silence plays into the null sink: with
# nothing moving, frames are not drawn (only polled), so the cost is the audio tap and the event
# loop. Measured per mode from /proc/PID/task/*/schedstat over the same window length.
#
# Usage: bench-idle.sh [DECIBAR_BINARY] [WINDOW_SECONDS]   (defaults: .build-release, 15 s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
window=${2:-15}

for tool in pulseaudio pactl pacat Xvfb python3; do
  command -v "$tool" >/dev/null || { echo "bench-idle: $tool not found (run Scripts/install-deps.sh --bench)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-idle: no decibar binary at $decibar" >&2; exit 1; }

. "$here/rig.sh"
rig_start dbi

# Digital silence, played for real (the sink is running, the monitor delivers zeros).
pacat --device=viz --format=float32le --rate=48000 --channels=2 </dev/zero >/dev/null 2>&1 &
pids+=("$!")


echo "idle CPU of the live window with silence playing (% of one core; goal < 1 %):"
for mode in bars spectrum meter; do
  "$decibar" live --mode "$mode" --size 1280x720 --exit-after $((window + 4)) >/dev/null 2>"$dir/$mode.err" &
  pid=$!
  pids+=("$pid")
  sleep 3   # started, connected, bars settled at the floor
  c0=$(cpu_ns "$pid"); t0=$(now)
  sleep "$window"
  c1=$(cpu_ns "$pid"); t1=$(now)
  python3 -c "print(f'  {\"$mode\":9s} {100 * ($c1 - $c0) / 1e9 / ($t1 - $t0):.2f} %')"
  wait "$pid" || true
done
