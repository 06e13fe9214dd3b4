#!/usr/bin/env bash
# Frame pacing of the daemon's window: 1280x720, 128 bars, Xvfb + llvmpipe, a realistic song
# (Scripts/make-music.sh) looping into the null sink, SECONDS (default 60) in each of the bars,
# spectrum and meter modes, alone and while the daemon serves 64 `levels` subscribers at 60 Hz.
#
# Each frame's time is the --frame-log stamp, taken right after the buffer swap (when the frame is
# handed to the display). Slots are one fixed 60 Hz grid for the whole run, as a display's refresh
# is: its period fitted to the frame times, its phase their median offset. A frame is on time when
# it lands within 2 ms of its slot; a slot that got no frame of its own counts as a late frame. Printed per run: the share on
# time (goal >= 99 %), the share within 0.5, 1 and 4 ms, the median and p99 distance to the slot,
# and the slots missed.
# Usage: bench-pacing.sh [DECIBAR_BINARY] [SECONDS]   (defaults: .build-release, 60)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
seconds=${2:-60}
for tool in pulseaudio pactl paplay python3 Xvfb ffmpeg; do
  command -v "$tool" >/dev/null || { echo "bench-pacing: $tool not found (make bench installs it)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-pacing: no decibar binary at $decibar (swift build -c release --product decibar --scratch-path .build-release)" >&2; exit 1; }

. "$here/rig.sh"
rig_start dbp
export XDG_CONFIG_HOME="$dir/config"
"$here/make-music.sh" "$dir/song.wav" 0 -14 >/dev/null
(while true; do paplay --device=viz "$dir/song.wav"; done) </dev/null >/dev/null 2>&1 &
pids+=("$!")
socket="$XDG_RUNTIME_DIR/decibar/control.sock"

start_daemon() {
  "$decibar" daemon --window shown --size 1280x720 --bars 128 "$@" </dev/null >/dev/null 2>"$dir/daemon.err" &
  daemon_pid=$!
  pids+=("$daemon_pid")
  for _ in $(seq 100); do [ -S "$socket" ] && return; sleep 0.05; done
  echo "bench-pacing: the daemon did not listen: $(cat "$dir/daemon.err")" >&2; exit 1
}

# COUNT subscribers at 60 Hz in one Python process, reading everything until killed.
subscribers() {
  python3 - "$socket" "$1" <<'PY' &
import socket, sys, selectors
selector = selectors.DefaultSelector()
for _ in range(int(sys.argv[2])):
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.setblocking(False)
    s.sendall(b'{"command": ["subscribe", "levels", 60]}\n')
    selector.register(s, selectors.EVENT_READ)
while True:
    for key, _ in selector.select(1):
        key.fileobj.recv(1 << 16)
PY
  subscribers_pid=$!
  pids+=("$subscribers_pid")
}

pacing() {
  python3 - "$1" <<'PY'
import sys, statistics
times = [float(line.split()[0]) for line in open(sys.argv[1])]
times = times[60:]   # past the window's first second (shader compiles, first tap buffers)
# The grid: slot k at phase + k * period, fitted to the frames (least squares over slot numbers,
# then the median offset), one grid for the whole run, as a display's refresh would be.
period = statistics.median(b - a for a, b in zip(times, times[1:]))
for _ in range(3):
    slots = [round((t - times[0]) / period) for t in times]
    n = len(slots); mean_s = sum(slots) / n; mean_t = sum(times) / n
    period = sum((s - mean_s) * (t - mean_t) for s, t in zip(slots, times)) / sum((s - mean_s) ** 2 for s in slots)
offsets = [t - times[0] - s * period for t, s in zip(times, slots)]
phase = statistics.median(offsets)
distances = [abs(offset - phase) * 1000 for offset in offsets]
spanned = slots[-1] - slots[0] + 1
# A slot with no frame of its own (skipped, or two frames in one) counts as a late frame.
missed = spanned - len(set(slots))
def share(limit): return 100 * sum(1 for d in distances if d <= limit) / (len(distances) + missed)
ordered = sorted(distances)
print(f"{len(times)} frames over {spanned} slots of {1000 * period:.3f} ms: within 2 ms {share(2):.2f} %"
      f" (0.5 ms {share(0.5):.1f} %, 1 ms {share(1):.1f} %, 4 ms {share(4):.1f} %);"
      f" distance median {ordered[len(ordered) // 2]:.2f} ms, p99 {ordered[int(0.99 * len(ordered))]:.2f} ms; {missed} slots missed")
PY
}

echo "decibar daemon frame pacing, $(date -u +%F), $(nproc) cores; 1280x720, 128 bars, Xvfb + llvmpipe, ${seconds} s each (goal: >= 99 % within 2 ms)"
for mode in bars spectrum meter; do
  for load in alone 64; do
    start_daemon --mode "$mode" --frame-log "$dir/frames-$mode-$load.log"
    if [ "$load" = 64 ]; then subscribers 64; fi
    sleep $((seconds + 1))
    printf '  %-8s %-16s %s\n' "$mode" "$([ "$load" = 64 ] && echo "64 subscribers" || echo alone)" "$(pacing "$dir/frames-$mode-$load.log")"
    [ "$load" = 64 ] && "$here/stop-pid.sh" "$subscribers_pid"
    "$here/stop-pid.sh" "$daemon_pid"
    rm -f "$socket"
  done
done
