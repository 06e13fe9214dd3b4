#!/usr/bin/env bash
# CPU of a desktop layer against the ordinary window, in the same run: `decibar live` drawing bars
# for music at 60 Hz on a 1920x1080 Xvfb with openbox, as a borderless window the size of the
# screen, as the background layer (which fills the monitor: the same pixels), as a 120 px overlay
# strip, and as the background covered by a window over all of it. Then the same on Wayland: a
# headless sway of 1920x1080 (pixman), SDL's window against the layer surfaces, and a background
# under a fullscreen window (no frame callbacks come). (wlroots' headless outputs cannot be
# switched off, so an output that is off is not measured.) Measured
# from /proc/PID/task/*/schedstat over the same window length; the window manager and Xvfb's own
# drawing are not counted.
#
# Usage: bench-layers.sh [DECIBAR_BINARY] [WINDOW_SECONDS]   (defaults: .build-release, 15 s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
window=${2:-15}

for tool in pulseaudio pactl paplay Xvfb openbox xev ffmpeg python3 sway swaymsg foot; do
  command -v "$tool" >/dev/null || { echo "bench-layers: $tool not found (run Scripts/install-deps.sh)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-layers: no decibar binary at $decibar" >&2; exit 1; }

. "$here/rig.sh"
rig_start dbl
openbox --sm-disable >/dev/null 2>&1 &
pids+=("$!")
sleep 1

# Music-like audio, looped for the whole run.
rig_music 150

measure() {
  local label=$1; shift
  "$decibar" live --size 1920x1080 --display-fps 60 --exit-after $((window + 5)) "$@" >/dev/null 2>"$dir/err" &
  local pid=$!
  pids+=("$pid")
  sleep 3
  if [ "$label" = "background, covered" ]; then
    xev -geometry 1920x1080+0+0 >/dev/null 2>&1 &
    pids+=("$!")
    sleep 1
  elif [ "$label" = "background, fullscreen over" ]; then
    foot --app-id=cover >/dev/null 2>&1 &
    pids+=("$!")
    # Once sway manages it (foot's first start can take a while).
    for _ in $(seq 1 100); do swaymsg -q '[app_id=cover] fullscreen enable' 2>/dev/null && break; sleep 0.1; done
    sleep 1
  fi
  kill -0 "$pid" 2>/dev/null || { echo "bench-layers: $label: decibar ended: $(cat "$dir/err")" >&2; exit 1; }
  local c0 t0 c1 t1
  c0=$(cpu_ns "$pid"); t0=$(now)
  sleep "$window"
  c1=$(cpu_ns "$pid"); t1=$(now)
  python3 -c "print(f'  {\"$label\":28s} {100 * ($c1 - $c0) / 1e9 / ($t1 - $t0):6.1f} % of a core')"
  wait "$pid" || true
}

echo "decibar live, bars for music at 60 Hz, 1920x1080 Xvfb (Mesa llvmpipe) with openbox:"
measure "window, borderless" --borderless
measure "background layer" --layer background
measure "overlay strip 120 px" --layer overlay --anchor bottom --height 120
measure "background, covered" --layer background

# Wayland: the same on a headless sway (its own runtime folder; DISPLAY unset, so SDL's window is
# a Wayland one too).
WAYLAND_DISPLAY=$("$here/sway-start.sh" "$dir/wl" 1920x1080)
pids+=("$(cat "$dir/wl/sway.pid")")
SWAYSOCK=$(ls "$dir"/wl/sway/sway-ipc.*.sock)
export WAYLAND_DISPLAY SWAYSOCK
unset DISPLAY
echo "the same on a headless sway 1.7 (wlroots, pixman), 1920x1080:"
measure "window (SDL, Wayland)" --borderless
measure "background layer" --layer background
measure "overlay strip 120 px" --layer overlay --anchor bottom --height 120
measure "background, fullscreen over" --layer background
pkill -f -- "--app-id=cover" || true
