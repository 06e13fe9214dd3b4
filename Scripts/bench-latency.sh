#!/usr/bin/env bash
# Audio-to-frame latency of `decibar live` on the null-sink rig (private PulseAudio + Xvfb).
#
# Method. A Python player (bench-latency-clicks.py) feeds pacat (5 ms latency) with silence paced
# in real time and, every 700 +- 50 ms (jittered so clicks fall at every point of the 60 Hz frame
# cycle), a 20 ms 0.8-amplitude 1 kHz burst, noting CLOCK_MONOTONIC as each burst's first sample
# is written. decibar logs one line per frame (--frame-log: the time it stamps on the frame, and
# the mean bar value); a frame "reacts" when the mean bar value rises by more than 0.01 over the
# previous frame (rechecked at other thresholds).
#
# Written -> reacting frame is an upper bound: it includes the pipe, pacat's buffer and the server.
# To take those out, a second Python process reads the sink's monitor with parec (5 ms latency).
# Each burst's first sample is placed on the clock by its position in the monitor stream, using the
# stream-to-clock offset of parec's quickest reads (so the reader's own scheduling delays drop out).
# Decibar's own latency is, per click, reacting frame minus that instant: it counts Decibar's
# capture fragment, hand-over and frame wait, and leaves out only the best-case server-to-client
# delay (about a millisecond; the null sink renders 1.25 ms blocks here). The same figure counted
# from parec's actual read of the burst is printed as a lower bound.
# The frame's end is wherever decibar stamps its --frame-log line: after the buffer swap in the
# current LiveView, before it in the first version (which left out ~4 ms of llvmpipe drawing).
#
# FPS=N runs the window at N frames per second (--display-fps; under Xvfb nothing else sets the
# rate, which is otherwise 60). At 60 Hz a frame waits on average 8.3 ms for its slot, most of a
# 12 ms budget; at 144 Hz, 3.5 ms.
#
# RIG_SERVER=pipewire runs it on a private PipeWire, BACKEND=pulse|pipewire picks decibar's backend.
#
# Usage: [CLICKS=40] [FPS=N] [RIG_SERVER=pipewire] [BACKEND=...] bench-latency.sh [DECIBAR_BINARY]
#        (default binary: the release build in .build-release)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
clicks=${CLICKS:-40}
interval=0.7
fps=${FPS:-}
fps_args=()
[ -z "$fps" ] || fps_args=(--display-fps "$fps")
[ -z "${BACKEND:-}" ] || fps_args+=(--backend "$BACKEND")

for tool in pulseaudio pactl pacat parec Xvfb python3; do
  command -v "$tool" >/dev/null || { echo "bench-latency: $tool not found (apt-get install pulseaudio pulseaudio-utils xvfb python3)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-latency: no decibar binary at $decibar (swift build -c release --product decibar --scratch-path .build-release)" >&2; exit 1; }

. "$here/rig.sh"
rig_start dbl

# Long enough for the setup, the clicks and a tail; decibar closes itself.
run_s=$(python3 -c "print(round(3.5 + $clicks * $interval, 1))")
"$decibar" live --size 1280x720 --bars 48 --exit-after "$run_s" --frame-log "$dir/frames.log" "${fps_args[@]}" >"$dir/decibar.out" 2>"$dir/decibar.err" &
decibar_pid=$!
pids+=("$decibar_pid")
for _ in $(seq 1 200); do
  grep -q "listening to" "$dir/decibar.err" 2>/dev/null && break
  kill -0 "$decibar_pid" 2>/dev/null || { echo "bench-latency: decibar exited early: $(cat "$dir/decibar.err")" >&2; exit 1; }
  sleep 0.025
done
grep -q "listening to" "$dir/decibar.err" || { echo "bench-latency: decibar did not start capturing within 5 s" >&2; exit 1; }

python3 "$here/bench-latency-clicks.py" monitor "$dir/monitor.log" &
monitor_pid=$!
pids+=("$monitor_pid")
sleep 0.5   # parec connected and streaming before the first burst
python3 "$here/bench-latency-clicks.py" play "$dir/writes.txt" "$clicks" "$interval"

wait "$decibar_pid" || { echo "bench-latency: decibar failed: $(cat "$dir/decibar.err")" >&2; exit 1; }
"$here/stop-pid.sh" "$monitor_pid"   # its log is complete before it is read
echo "Audio-to-frame latency: decibar live (1280x720, 48 bars, Xvfb/llvmpipe, ${fps:-60} Hz, ${RIG_SERVER:-pulseaudio}, backend ${BACKEND:-auto}), $clicks clicks about ${interval} s apart"
python3 "$here/bench-latency-clicks.py" analyze "$dir/writes.txt" "$dir/monitor.log" "$dir/frames.log"
