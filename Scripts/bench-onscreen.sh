#!/usr/bin/env bash
# What the on-screen display costs a window: the daemon's 1280x720 window on Xvfb (Mesa's software
# renderer), music playing, measured over the same length each time, in the same run:
#   bars, milkdrop           with nothing shown, against the binary before the display existed
#                            (BASE_BINARY, when given): CPU per frame and frame intervals;
#   bars, milkdrop shown     the stats and the controller over the picture (osc = always, stats toggle);
#   bars, milkdrop typing    the preset list open over every installed preset while a query is typed
#                            and erased, a key every 120 ms: the frame intervals, their worst among them.
# Over bars, whose frames cost little and vary little, the display's own cost shows clearest; over
# Milkdrop the machine's own variation (a few ms a frame between runs here) is larger than it.
# Milkdrop draws at a fixed scale (1) and one preset, so its frames cost the same in every case. The
# window asks for 1000 frames a second: frames follow one another as fast as they are drawn, so the
# interval between two is what a frame costs (at the display's rate they would be held to its slots).
# CPU from /proc/PID/task/*/schedstat; intervals from the window's frame log (stamped after each swap).
#
# Usage: bench-onscreen.sh [DECIBAR_BINARY] [BASE_BINARY] [WINDOW_SECONDS]   (defaults: .build-release, none, 10 s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
base=${2:-}
window=${3:-10}
preset="Geiss - Luz"

for tool in pulseaudio paplay Xvfb xdotool ffmpeg python3; do
  command -v "$tool" >/dev/null || { echo "bench-onscreen: $tool not found (run Scripts/install-deps.sh)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-onscreen: no decibar binary at $decibar" >&2; exit 1; }

. "$here/rig.sh"
rig_start dbo
rig_music 600

# measure NAME BINARY CONFIG_TEXT ACTION -- DAEMON_ARGS...: one line of figures.
measure() {
  local name=$1 binary=$2 config=$3 action=$4
  shift 5
  printf '%s' "$config" > "$dir/config.toml"
  export XDG_STATE_HOME="$dir/state"
  "$binary" daemon --config "$dir/config.toml" --size 1280x720 --display-fps 1000 --frame-log "$dir/frames.log" "$@" >"$dir/daemon.log" 2>&1 &
  local pid=$!
  for _ in $(seq 50); do "$binary" ctl status >/dev/null 2>&1 && break; sleep 0.1; done
  "$binary" ctl show >/dev/null
  sleep 3
  local window_id
  window_id=$(xdotool search --pid "$pid" --classname '^decibar$' | head -1)
  case $action in
    shown) "$binary" ctl stats toggle >/dev/null ;;
    typing) "$binary" ctl picker presets >/dev/null ;;
  esac
  sleep 1
  local typist=""
  if [ "$action" = typing ]; then
    (while true; do
       for key in g e i s s BackSpace BackSpace BackSpace BackSpace BackSpace; do
         xdotool windowfocus "$window_id" key "$key" 2>/dev/null; sleep 0.12
       done
     done) &
    typist=$!
  fi
  local start cpu0 end cpu1
  start=$(now); cpu0=$(cpu_ns "$pid")
  sleep "$window"
  end=$(now); cpu1=$(cpu_ns "$pid")
  [ -n "$typist" ] && { kill "$typist"; wait "$typist" 2>/dev/null || true; }
  "$binary" ctl quit >/dev/null 2>&1 || true
  wait "$pid" || true
  python3 - "$dir/frames.log" "$start" "$end" "$cpu0" "$cpu1" "$name" <<'EOF'
import statistics, sys
path, start, end, cpu0, cpu1, name = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
stamps = [float(line.split()[0]) for line in open(path) if line.strip()]
stamps = [t for t in stamps if start <= t <= end]
gaps = sorted((b - a) * 1000 for a, b in zip(stamps, stamps[1:]))
frames = len(stamps)
cpu_ms = (cpu1 - cpu0) / 1e6 / max(1, frames)
print("%-34s %6.1f fps   CPU %6.2f ms/frame   interval median %6.2f  p90 %6.2f  worst %6.1f ms" % (
    name, frames / (end - start), cpu_ms, statistics.median(gaps), gaps[int(0.9 * (len(gaps) - 1))], gaps[-1]))
EOF
  rm -f "$dir/frames.log"
}

milkdrop=(--mode milkdrop --preset "$preset" --milkdrop-scale 1 --preset-duration 3600 --seed 1)
echo "window: ${window} s each, 1280x720, $(glxinfo -B 2>/dev/null | awk -F': ' '/OpenGL renderer/ {print $2}' || true)"
for round in 1 2 3; do
  echo "round $round"
  [ -n "$base" ] && measure "bars, before (base)" "$base" "" hidden -- --mode bars
  measure "bars, nothing shown" "$decibar" "" hidden -- --mode bars
  measure "bars, stats + controller shown" "$decibar" $'[display]\nosc = "always"\n' shown -- --mode bars
  measure "bars, preset list, typing" "$decibar" "" typing -- --mode bars
  [ -n "$base" ] && measure "milkdrop, before (base)" "$base" "" hidden -- "${milkdrop[@]}"
  measure "milkdrop, nothing shown" "$decibar" "" hidden -- "${milkdrop[@]}"
  measure "milkdrop, stats + controller shown" "$decibar" $'[display]\nosc = "always"\n' shown -- "${milkdrop[@]}"
  measure "milkdrop, preset list, typing" "$decibar" "" typing -- "${milkdrop[@]}"
done
echo "goals: nothing shown costs what the base did (CPU per frame, intervals); shown over Milkdrop at most 1 ms a frame more; typing never holds a frame"

