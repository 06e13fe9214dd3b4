#!/usr/bin/env bash
# CPU of each output of `--send`, against `decibar levels` alone, all in the same window on a
# private PulseAudio whose null sink plays a synthetic song (Scripts/make-music.sh) in a loop.
#
# Six `decibar levels` run side by side on the sink's monitor: one alone (its JSON lines, 30 a
# second, to /dev/null) and one per output, each with the same lines and one `--send`:
#   wled://   WLED audio sync, 50 packets a second
#   ddp://    DDP, 300 pixels (one packet) at 60 a second
#   ddp://    DDP, 4800 pixels (ten packets) at 60 a second
#   osc://    OSC levels, bands, loudness and beats at 60 a second
#   http://   the web page at 60 frames a second, with one WebSocket reader and one /levels reader
# Datagrams go to a UDP socket of a small Python reader that drains them (not counted); the page's
# readers are Scripts/ws-frames.py and curl (not counted). Each process's CPU is the change of its
# threads' schedstat over the window, as % of one core; an output's cost is its process's CPU less
# the one alone's.
#
# Usage: bench-outputs.sh [DECIBAR_BINARY] [WINDOW_SECONDS]   (defaults: .build-release, 60)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
window=${2:-60}
for tool in pulseaudio pactl paplay python3 ffmpeg curl; do
  command -v "$tool" >/dev/null || { echo "bench-outputs: $tool not found (make bench installs it)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-outputs: no decibar binary at $decibar (swift build -c release --product decibar --scratch-path .build-release)" >&2; exit 1; }

. "$here/rig.sh"
rig_start dbo --no-display
"$here/make-music.sh" "$dir/song.wav" 1 -14 >/dev/null
(while true; do paplay --device=viz "$dir/song.wav"; done) </dev/null >/dev/null 2>&1 &
pids+=("$!")

# A UDP sink on loopback that reads everything sent to it; prints its port.
python3 -u - > "$dir/udp-port" <<'PY' &
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1], flush=True)
while True:
    s.recv(65536)
PY
pids+=("$!")
for _ in $(seq 50); do [ -s "$dir/udp-port" ] && break; sleep 0.1; done
udp=$(cat "$dir/udp-port")
page=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

names=(alone wled ddp-300 ddp-4800 osc http)
sends=("" "wled://127.0.0.1:$udp" "ddp://127.0.0.1:$udp?pixels=300" "ddp://127.0.0.1:$udp?pixels=4800"
       "osc://127.0.0.1:$udp" "http://127.0.0.1:$page")
declare -A process
for index in "${!names[@]}"; do
  arguments=(levels --source viz.monitor)
  [ -n "${sends[$index]}" ] && arguments+=(--send "${sends[$index]}")
  "$decibar" "${arguments[@]}" </dev/null >/dev/null 2>"$dir/${names[$index]}.err" &
  process[${names[$index]}]=$!
  pids+=("$!")
done
for _ in $(seq 100); do grep -q "the page is at" "$dir/http.err" 2>/dev/null && break; sleep 0.05; done
python3 "$here/ws-frames.py" 127.0.0.1 "$page" /ws "$((window + 10))" > "$dir/page-frames.txt" &
pids+=("$!")
curl -sN "http://127.0.0.1:$page/levels" > /dev/null &
pids+=("$!")
sleep 3   # all connected and past their start-up work
for name in "${names[@]}"; do
  [ -e "/proc/${process[$name]}/stat" ] || { echo "bench-outputs: $name exited early: $(cat "$dir/$name.err")" >&2; exit 1; }
done

cpu_ticks() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{sum += $1} END {printf "%.0f", sum}'; }
now() { python3 -c 'import time; print(time.clock_gettime(time.CLOCK_MONOTONIC))'; }
declare -A before after
for name in "${names[@]}"; do before[$name]=$(cpu_ticks "${process[$name]}"); done
t0=$(now)
frames0=$(wc -l < "$dir/page-frames.txt")
sleep "$window"
for name in "${names[@]}"; do after[$name]=$(cpu_ticks "${process[$name]}"); done
t1=$(now)
frames1=$(wc -l < "$dir/page-frames.txt")

echo "decibar outputs: CPU as % of one core over ${window} s, $(date -u +%F), $(nproc) cores; a song looping into a null sink"
python3 - "$t0" "$t1" "$frames0" "$frames1" "${names[@]}" -- $(for name in "${names[@]}"; do echo "${before[$name]} ${after[$name]}"; done) <<'PY'
import sys
t0, t1, frames0, frames1 = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rest = sys.argv[5:]
names = rest[:rest.index("--")]
ticks = list(map(int, rest[rest.index("--") + 1:]))
span = t1 - t0
cpu = {name: 100 * (ticks[2 * i + 1] - ticks[2 * i]) / 1e9 / span for i, name in enumerate(names)}
labels = {"alone": "levels alone (30 lines a second)", "wled": "+ --send wled:// (50 a second)",
          "ddp-300": "+ --send ddp:// 300 pixels (60 a second)", "ddp-4800": "+ --send ddp:// 4800 pixels (600 packets a second)",
          "osc": "+ --send osc:// (4 messages, 60 a second)", "http": "+ --send http:// (page 60 fps, 1 page, 1 /levels)"}
alone = cpu["alone"]
for name in names:
    extra = "" if name == "alone" else f"   output {cpu[name] - alone:+6.2f}   ×{cpu[name] / alone:.2f} of alone"
    print(f"  {labels[name]:48} {cpu[name]:6.2f} %{extra}")
print(f"  the page's reader got {(frames1 - frames0) / span:.1f} frames a second")
PY
