#!/usr/bin/env bash
# decibar term beside cava 0.7.4 in the same tmux (200x50, 64 bars, 60 frames a second, noncurses
# output, the null sink's monitor, music playing): the CPU each uses and the bytes each writes to
# the terminal in 30 s, alternating, two runs; then decibar term on silence. decibar draws cava's
# picture: a spectrum of 64 bars rising from the bottom (its "bars" mode is the level, not a spectrum).
# Usage: bench-term.sh [DECIBAR_BINARY]
set -euo pipefail
binary=${1:-${DECIBAR_BINARY:-$(cd "$(dirname "$0")/.." && pwd)/.build/release/decibar}}
source "$(dirname "$0")/rig.sh"
rig_start bterm --no-display
seconds=${SECONDS_EACH:-30}
rig_music $((seconds * 5 + 30))
cat > "$dir/cava.conf" <<CAVA
[general]
framerate = 60
bars = 64
autosens = 1
sleep_timer = 0
[input]
method = pulse
source = viz.monitor
[output]
method = noncurses
CAVA
sock="$dir/tmux.sock"
tmux -S "$sock" -f /dev/null new-session -d -x 200 -y 50 -e PULSE_SERVER="$PULSE_SERVER" -e PULSE_COOKIE="$PULSE_COOKIE" \
  -e XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" -e COLORTERM=truecolor -e NO_COLOR= sh </dev/null >/dev/null 2>&1
measure() { # name command...
  local name=$1; shift
  tmux -S "$sock" send-keys -l "exec $*" ; tmux -S "$sock" send-keys Enter
  sleep 3
  local shell pid
  shell=$(tmux -S "$sock" display -p '#{pane_pid}')
  pid=$shell
  local before after bytes0 bytes1
  before=$(cpu_ns "$pid"); bytes0=$(awk '/^wchar/ {print $2}' /proc/"$pid"/io)
  sleep "$seconds"
  after=$(cpu_ns "$pid"); bytes1=$(awk '/^wchar/ {print $2}' /proc/"$pid"/io)
  printf '%-22s CPU %6.2f %%   %9.0f bytes/s\n' "$name" "$(echo "($after - $before) / ($seconds * 10000000)" | bc -l)" \
    "$(echo "($bytes1 - $bytes0) / $seconds" | bc -l)"
  tmux -S "$sock" respawn-pane -k sh; sleep 1
}
for run in 1 2; do
  measure "decibar term (run $run)" "$binary term --mode spectrum --orientation bottom --bars 64 --display-fps 60"
  measure "cava (run $run)" "cava -p $dir/cava.conf"
done
kill "${pids[@]}" 2>/dev/null || true; sleep 1
measure "decibar term, silence" "$binary term --mode spectrum --orientation bottom --bars 64 --display-fps 60"
tmux -S "$sock" kill-server
