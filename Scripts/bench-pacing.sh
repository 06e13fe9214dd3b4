#!/usr/bin/env bash
# Frame pacing of the daemon's window: 1280x720, 128 bars, Xvfb + llvmpipe, a realistic song
# (Scripts/make-music.sh) looping into the null sink, SECONDS (default 60) in each of the bars,
# spectrum and meter modes, alone, while the daemon serves 64 `levels` subscribers at 60 Hz, and
# while it sends to the outputs of `--send` (a page with 15 readers and one stalled, a datagram flood).
#
# Each frame's time is the --frame-log stamp, taken right after the buffer swap (when the frame is
# handed to the display). Slots are one fixed 60 Hz grid for the whole run, as a display's refresh
# is: its period fitted to the frame times, its phase their median offset. A frame is on time when
# it lands within 2 ms of its slot; a slot that got no frame of its own counts as a late frame. Printed per run: the share on
# time (goal >= 99 %), the share within 0.5, 1 and 4 ms, the median and p99 distance to the slot,
# and the slots missed.
# Usage: [MODES="bars meter"] bench-pacing.sh [DECIBAR_BINARY] [SECONDS]   (defaults: .build-release, 60, all three modes)
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

pacing() { python3 "$here/frame-pacing.py" "$1"; }

# The outputs' load: the page's 16 clients, 15 reading and one that never does, and WLED, DDP (4800 pixels,
# ten datagrams a frame) and OSC sent to a port nobody listens on.
page_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
dead_port=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sends=(--send "http://127.0.0.1:$page_port" --send "wled://127.0.0.1:$dead_port" --send "ddp://127.0.0.1:$dead_port?pixels=4800"
       --send "osc://127.0.0.1:$dead_port")
page_clients() {
  python3 "$here/ws-frames.py" 127.0.0.1 "$page_port" /ws "$((seconds + 1))" --clients 15 --drain > "$dir/page-frames.txt" &
  readers_pid=$!
  python3 "$here/ws-frames.py" 127.0.0.1 "$page_port" /ws "$((seconds + 1))" --read-not &
  stalled_pid=$!
  pids+=("$readers_pid" "$stalled_pid")
}

label() { case "$1" in alone) echo alone ;; 64) echo "64 subscribers" ;; outputs) echo "--send, 16 pages" ;; esac; }

echo "decibar daemon frame pacing, $(date -u +%F), $(nproc) cores; 1280x720, 128 bars, Xvfb + llvmpipe, ${seconds} s each (goal: >= 99 % within 2 ms)"
for mode in ${MODES:-bars spectrum meter}; do
  for load in alone 64 outputs; do
    extra=()
    [ "$load" = outputs ] && extra=("${sends[@]}")
    start_daemon --mode "$mode" --frame-log "$dir/frames-$mode-$load.log" "${extra[@]}"
    [ "$load" = 64 ] && subscribers 64
    [ "$load" = outputs ] && page_clients
    sleep $((seconds + 1))
    printf '  %-8s %-16s %s\n' "$mode" "$(label "$load")" "$(pacing "$dir/frames-$mode-$load.log")"
    [ "$load" = 64 ] && "$here/stop-pid.sh" "$subscribers_pid"
    if [ "$load" = outputs ]; then
      wait "$readers_pid" || true
      "$here/stop-pid.sh" "$stalled_pid"
      python3 - "$dir/page-frames.txt" "$seconds" <<'PY'
import sys
received = sorted(int(n) for n in open(sys.argv[1]).read().split())
print(f"  {'':8} {'':16} the 15 page readers: {sum(1 for n in received if n)} got frames, {received[0] / 1024 / float(sys.argv[2]):.0f} to {received[-1] / 1024 / float(sys.argv[2]):.0f} KiB a second")
PY
      "$decibar" ctl status 2>/dev/null | grep -E "sending|dropped" | sed 's/^/           /' || true
    fi
    "$here/stop-pid.sh" "$daemon_pid"
    rm -f "$socket"
  done
done
