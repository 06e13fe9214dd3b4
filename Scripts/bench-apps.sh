#!/usr/bin/env bash
# CPU of listening to one app (`decibar levels --app music`) against the whole-output tap
# (`decibar levels --source viz.monitor`), both running at once on a private PulseAudio whose null
# sink plays the demo track as the app "music" and a tone as "chime". Then the same with 8 streams
# of "music" playing at once (8 captures summed), again beside the whole-output tap.
#
# Each process's CPU is the change of its threads' schedstat run time over one shared window, as %
# of one core; pulseaudio's own is given too (it does the per-stream copies). Lines at 60 Hz, as
# bench-cpu.sh's levels.
#
# Usage: bench-apps.sh [DECIBAR_BINARY] [WINDOW_SECONDS]   (defaults: .build-release, 30 s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
window=${2:-30}

for tool in pulseaudio pactl paplay sox python3; do
  command -v "$tool" >/dev/null || { echo "bench-apps: $tool not found (apt-get install pulseaudio pulseaudio-utils sox python3)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-apps: no decibar binary at $decibar (make release)" >&2; exit 1; }

. "$here/rig.sh"
rig_start dba --no-display
pulse_pid=$(cat "$dir/pa/pulse.pid")

"$here/demo-signal.sh" "$dir/demo.wav"
sox -n -r 48000 -c 2 -e floating-point -b 32 "$dir/chime.wav" synth 30 sine 2000 vol 0.1
play_loop() {  # FILE APP: plays FILE as APP, again and again
  (while true; do paplay --device=viz --property=application.name="$2" "$1"; done) </dev/null >/dev/null 2>&1 &
  pids+=("$!")
}
play_loop "$dir/demo.wav" music
play_loop "$dir/chime.wav" chime

percent() { python3 -c "print(f'{100 * ($2 - $1) / 1e9 / $3:.2f}')"; }

# measure LABEL: runs the whole-output tap and the app tap for `window` seconds; prints both and the ratio.
measure() {
  "$decibar" levels --rate 60 --source viz.monitor </dev/null >/dev/null 2>"$dir/whole.err" &
  local whole=$!
  "$decibar" levels --rate 60 --app music </dev/null >/dev/null 2>"$dir/app.err" &
  local app=$!
  pids+=("$whole" "$app")
  sleep 2
  local w0 a0 p0 t0 w1 a1 p1 t1 span
  w0=$(cpu_ns "$whole"); a0=$(cpu_ns "$app"); p0=$(cpu_ns "$pulse_pid"); t0=$(now)
  sleep "$window"
  w1=$(cpu_ns "$whole"); a1=$(cpu_ns "$app"); p1=$(cpu_ns "$pulse_pid"); t1=$(now)
  span=$(python3 -c "print($t1 - $t0)")
  grep -q "listening to music" "$dir/app.err" || { echo "bench-apps: the app tap never heard music: $(cat "$dir/app.err")" >&2; exit 1; }
  local whole_cpu app_cpu
  whole_cpu=$(percent "$w0" "$w1" "$span"); app_cpu=$(percent "$a0" "$a1" "$span")
  printf '%-44s %6s %% of a core\n' "decibar levels --source viz.monitor" "$whole_cpu"
  printf '%-44s %6s %% of a core   ratio %s%s\n' "decibar levels --app music ($1)" "$app_cpu" \
    "$(python3 -c "print(f'{$app_cpu / $whole_cpu:.2f}x')")" "$2"
  printf '%-44s %6s %% of a core (serving both)\n' "pulseaudio" "$(percent "$p0" "$p1" "$span")"
  "$here/stop-pid.sh" "$whole"; "$here/stop-pid.sh" "$app"
}

sleep 1
echo "Window ${window} s each, lines at 60 Hz, on PulseAudio with a null sink"
measure "1 stream" "  (goal <= 1.2x)"
for _ in $(seq 7); do play_loop "$dir/demo.wav" music; done
sleep 1
[ "$(pactl list sink-inputs short | wc -l)" -ge 9 ] || { echo "bench-apps: the 8 players did not start" >&2; exit 1; }
measure "8 streams" ""
