#!/usr/bin/env bash
# The daemon's figures, each beside a reference taken in the same run:
#   1. command round trip (protocol_version, 2000 in a row, window hidden): p50 / p99;
#   2. idle CPU with no window and no subscriber (the tap closed) over WINDOW seconds;
#   3. CPU with the window hidden and one `levels` subscriber at 30 Hz, against cava 0.7.4
#      (64 bars, 60 fps) on the same monitor over the same window;
#   4. CPU with 64 subscribers at 60 Hz (and each one's event rate);
#   5. frame pacing with the window shown (1280x720, Xvfb + llvmpipe), alone and with the 64
#      subscribers: share of frame intervals within 2 ms of the median;
#   6. RSS after RSS_SECONDS (default 600) of the window hidden and one subscriber.
# CPU is read from /proc/PID/task/*/schedstat (nanoseconds), as bench-cpu.sh does.
# Usage: bench-daemon.sh [DECIBAR_BINARY] [WINDOW_SECONDS]   (defaults: .build-release, 30 s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
window=${2:-30}
rss_seconds=${RSS_SECONDS:-600}
for tool in pulseaudio pactl paplay cava python3 Xvfb; do
  command -v "$tool" >/dev/null || { echo "bench-daemon: $tool not found (make bench installs it)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-daemon: no decibar binary at $decibar (swift build -c release --product decibar --scratch-path .build-release)" >&2; exit 1; }

. "$here/rig.sh"
rig_start dbd
export XDG_CONFIG_HOME="$dir/config"
"$here/demo-signal.sh" "$dir/demo.wav"
(while true; do paplay --device=viz "$dir/demo.wav"; done) </dev/null >/dev/null 2>&1 &
pids+=("$!")
socket="$XDG_RUNTIME_DIR/decibar/control.sock"

cpu_ticks() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{sum += $1} END {printf "%.0f", sum}'; }
now() { python3 -c 'import time; print(time.clock_gettime(time.CLOCK_MONOTONIC))'; }
# CPU of PID over SECONDS, in % of one core.
cpu_over() {
  local pid=$1 seconds=$2 a b t0 t1
  a=$(cpu_ticks "$pid"); t0=$(now); sleep "$seconds"; b=$(cpu_ticks "$pid"); t1=$(now)
  python3 -c "print(f'{100 * ($b - $a) / 1e9 / ($t1 - $t0):.3f}')"
}

start_daemon() {
  "$decibar" daemon --size 1280x720 --bars 128 "$@" </dev/null >/dev/null 2>"$dir/daemon.err" &
  daemon_pid=$!
  pids+=("$daemon_pid")
  for _ in $(seq 100); do [ -S "$socket" ] && return; sleep 0.05; done
  echo "bench-daemon: the daemon did not listen: $(cat "$dir/daemon.err")" >&2; exit 1
}

# Subscribers in one Python process: COUNT connections at RATE Hz, counting events per connection.
subscribers() {
  python3 - "$socket" "$1" "$2" "$3" <<'PY' &
import socket, sys, time, selectors
path, count, rate, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
selector = selectors.DefaultSelector()
counts = {}
for index in range(count):
    s = socket.socket(socket.AF_UNIX); s.connect(path); s.setblocking(False)
    s.sendall(f'{{"command": ["subscribe", "levels", {rate}]}}\n'.encode())
    selector.register(s, selectors.EVENT_READ, index); counts[index] = [0, b""]
start = time.monotonic() + 2
while time.monotonic() < start + seconds:
    for key, _ in selector.select(0.5):
        data = key.fileobj.recv(1 << 16)
        entry = counts[key.data]
        entry[1] += data
        lines = entry[1].split(b"\n"); entry[1] = lines.pop()
        if time.monotonic() >= start: entry[0] += sum(1 for line in lines if line.startswith(b'{"event":"levels"'))
rates = sorted(entry[0] / seconds for entry in counts.values())
print(f"    events per second per subscriber: min {rates[0]:.1f}, median {rates[len(rates) // 2]:.1f}", flush=True)
time.sleep(3600)
PY
  subscribers_pid=$!
  pids+=("$subscribers_pid")
}

echo "decibar daemon, $(date -u +%F), $(nproc) cores; WINDOW ${window} s"
start_daemon

# 1. Round trip.
python3 - "$socket" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
samples, buffer = [], b""
for index in range(2000):
    start = time.perf_counter()
    s.sendall(b'{"command": ["protocol_version"], "request_id": %d}\n' % (index + 1))
    while b"\n" not in buffer: buffer += s.recv(4096)
    line, buffer = buffer.split(b"\n", 1)
    samples.append(time.perf_counter() - start)
samples.sort()
print(f"1. round trip (protocol_version, window hidden): p50 {1000 * samples[1000]:.3f} ms, p99 {1000 * samples[1979]:.3f} ms  (goal p50 < 1 ms)")
PY

# 2. Idle.
sleep 1
idle=$(cpu_over "$daemon_pid" "$window")
echo "2. idle, no window, no subscriber: $idle % of a core  (goal < 0.05 %; tap: $(grep -c 'tap opened' "$dir/daemon.err" || true) opened so far)"

# 3. One subscriber at 30 Hz against cava.
rig_cava_config "$dir/cava.conf"
cava -p "$dir/cava.conf" </dev/null >/dev/null 2>"$dir/cava.err" &
cava_pid=$!
pids+=("$cava_pid")
subscribers 1 30 "$window"
sleep 2
c0=$(cpu_ticks "$cava_pid"); d0=$(cpu_ticks "$daemon_pid"); t0=$(now)
sleep "$window"
c1=$(cpu_ticks "$cava_pid"); d1=$(cpu_ticks "$daemon_pid"); t1=$(now)
python3 -c "
e = $t1 - $t0; d = 100 * ($d1 - $d0) / 1e9 / e; c = 100 * ($c1 - $c0) / 1e9 / e
print(f'3. window hidden, one subscriber at 30 Hz: daemon {d:.2f} %, cava 0.7.4 {c:.2f} % of a core; ratio {d / c:.2f}')"
sleep 1
"$here/stop-pid.sh" "$subscribers_pid"; "$here/stop-pid.sh" "$cava_pid"

# 4. 64 subscribers.
subscribers 64 60 "$window"
sleep 2
many=$(cpu_over "$daemon_pid" "$window")
echo "4. window hidden, 64 subscribers at 60 Hz: daemon $many % of a core"
sleep 1
"$here/stop-pid.sh" "$subscribers_pid"

# 5. Frame pacing.
"$here/stop-pid.sh" "$daemon_pid"
pacing() {
  python3 - "$1" <<'PY'
import sys, statistics
times = [float(line.split()[0]) for line in open(sys.argv[1])][30:]
intervals = [b - a for a, b in zip(times, times[1:])]
median = statistics.median(intervals)
within = sum(1 for i in intervals if abs(i - median) <= 0.002) / len(intervals)
ordered = sorted(intervals)
print(f"{len(intervals)} frames, median interval {1000 * median:.2f} ms, within 2 ms of it {100 * within:.1f} %, p99 {1000 * ordered[int(0.99 * len(ordered))]:.2f} ms")
PY
}
start_daemon --window shown --frame-log "$dir/frames-alone.log"
sleep "$window"
echo "5. frame pacing, window shown (1280x720, 128 bars, Xvfb + llvmpipe):"
echo "    alone:              $(pacing "$dir/frames-alone.log")"
"$here/stop-pid.sh" "$daemon_pid"
start_daemon --window shown --frame-log "$dir/frames-many.log"
subscribers 64 60 "$window"
sleep $((window + 2))
echo "    with 64 subscribers: $(pacing "$dir/frames-many.log")"
"$here/stop-pid.sh" "$subscribers_pid"; "$here/stop-pid.sh" "$daemon_pid"

# 6. RSS over a long run.
start_daemon
subscribers 1 30 "$rss_seconds"
sleep 5
rss0=$(awk '/VmRSS/ {print $2}' /proc/"$daemon_pid"/status)
sleep "$rss_seconds"
rss1=$(awk '/VmRSS/ {print $2}' /proc/"$daemon_pid"/status)
echo "6. RSS, window hidden, one subscriber: $((rss0 / 1024)) MiB after 5 s, $((rss1 / 1024)) MiB after $rss_seconds s"
