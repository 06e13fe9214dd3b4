#!/usr/bin/env bash
# CPU use of `decibar levels --rate 60` against cava 0.7.4 (64 bars, 60 fps, raw output to
# /dev/null) listening to the same monitor at the same time, on a private PulseAudio whose null
# sink plays the demo track (Scripts/demo-signal.sh) in a loop.
#
# Each process's CPU is the change of utime+stime in /proc/PID/stat (all its threads) over one
# shared window, as % of one core. pulseaudio's own CPU is reported twice: with the player alone
# (a short baseline) and during the window, where it also serves the capture clients.
#
# With MODE spectrum, decibar prints 64 band levels per channel at 60 lines/s
# (`levels --mode spectrum --bands 64 --rate 60`), against the same cava. With MODE loudness,
# `levels --mode loudness --rate 10` (EBU R128 with true peak on every sample, 10 lines/s), against
# `ffmpeg -f pulse -i MONITOR -af ebur128=peak=true -f null -`, the same work (cava does no loudness).
# With MODE daemon, `decibar daemon` (window hidden) with one `levels` subscriber at 30 Hz on its
# control socket; the subscriber (a small Python client) is not counted.
#
# BEFORE=PATH runs a second decibar binary (an earlier build) the same way in the same window, so
# the figures before and after a change come from one run on one machine.
#
# Decibar's own CPU is also split by thread: the PulseAudio client thread (capture callback and
# the hand-over of buffers), the executor threads that run the line writer, and the rest (the main
# thread, which sleeps until the tap's status changes).
#
# Usage: [BEFORE=PATH] bench-cpu.sh [DECIBAR_BINARY] [WINDOW_SECONDS] [MODE]   (defaults: .build-release,
# 60 s, levels; MODE: levels, spectrum, loudness or daemon; `all` runs the four one after another)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
window=${2:-60}
mode=${3:-levels}
if [ "$mode" = all ]; then
  for each in levels spectrum loudness daemon; do "$0" "$decibar" "$window" "$each"; done
  exit 0
fi
goal="  (goal <= 0.4)"
reference=cava
case "$mode" in
  levels) decibar_args=(levels --rate 60); label="decibar levels --rate 60" ;;
  spectrum) decibar_args=(levels --mode spectrum --bands 64 --rate 60); label="decibar levels --mode spectrum --bands 64" ;;
  loudness) decibar_args=(levels --mode loudness --rate 10); label="decibar levels --mode loudness"; reference=ffmpeg; goal="  (goal <= 0.5)" ;;
  daemon) decibar_args=(daemon); label="decibar daemon, 1 subscriber 30 Hz" ;;
  *) echo "bench-cpu: MODE must be levels, spectrum, loudness, daemon or all" >&2; exit 2 ;;
esac
baseline=5

for tool in pulseaudio pactl paplay cava ffmpeg python3; do
  command -v "$tool" >/dev/null || { echo "bench-cpu: $tool not found (apt-get install pulseaudio pulseaudio-utils cava ffmpeg python3)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-cpu: no decibar binary at $decibar (swift build -c release --product decibar --scratch-path .build-release)" >&2; exit 1; }
before=${BEFORE:-}
[ -z "$before" ] || [ -x "$before" ] || { echo "bench-cpu: no decibar binary at BEFORE=$before" >&2; exit 1; }

. "$here/rig.sh"
rig_start dbc --no-display
pulse_pid=$(cat "$dir/pa/pulse.pid")

"$here/demo-signal.sh" "$dir/demo.wav"
# The track is 32 s; loop it so the window never falls into a gap between plays.
(while true; do paplay --device=viz "$dir/demo.wav"; done) </dev/null >/dev/null 2>&1 &
pids+=("$!")

rig_cava_config "$dir/cava.conf"

# Nanoseconds on a CPU, summed over the process's threads (schedstat is exact; the 10 ms ticks
# of /proc/PID/stat are too coarse for a process that uses 1 % of a core).
cpu_ticks() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{sum += $1} END {printf "%.0f", sum}'; }
percent() { python3 -c "print(f'{100 * ($2 - $1) / 1e9 / $3:.2f}')"; }
now() { python3 -c 'import time; print(time.clock_gettime(time.CLOCK_MONOTONIC))'; }

sleep 1   # the player connected and running
pa0=$(cpu_ticks "$pulse_pid"); t0=$(now)
sleep "$baseline"
pa1=$(cpu_ticks "$pulse_pid"); t1=$(now)
pulse_alone=$(percent "$pa0" "$pa1" "$(python3 -c "print($t1 - $t0)")")

if [ "$reference" = cava ]; then
  cava -p "$dir/cava.conf" </dev/null >"$dir/reference.out" 2>"$dir/reference.err" &
  reference_label="cava 0.7.4 (64 bars, 60 fps)"
else
  ffmpeg -nostdin -hide_banner -loglevel error -f pulse -i viz.monitor -af ebur128=peak=true -f null - \
    >"$dir/reference.out" 2>"$dir/reference.err" &
  reference_label="ffmpeg -af ebur128=peak=true"
fi
reference_pid=$!
pids+=("$reference_pid")

# Starts one decibar (NAME: now or before) and sets started_pid.
start_decibar() {
  local binary=$1 name=$2
  if [ "$mode" = daemon ]; then
    # Each daemon has its own runtime folder, so each listens on its own socket.
    mkdir -p "$dir/$name-runtime" "$dir/$name-config"
    chmod 700 "$dir/$name-runtime"
    XDG_RUNTIME_DIR="$dir/$name-runtime" XDG_CONFIG_HOME="$dir/$name-config" \
      "$binary" "${decibar_args[@]}" </dev/null >/dev/null 2>"$dir/$name.err" &
    started_pid=$!
    pids+=("$started_pid")
    local socket="$dir/$name-runtime/decibar/control.sock"
    for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.05; done
    [ -S "$socket" ] || { echo "bench-cpu: the daemon did not listen: $(cat "$dir/$name.err")" >&2; exit 1; }
    # One subscriber reading every event (the daemon opens the tap for it).
    python3 - "$socket" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b'{"command": ["subscribe", "levels", 30]}\n')
while s.recv(1 << 16): pass
PY
    pids+=("$!")
  else
    "$binary" "${decibar_args[@]}" --source viz.monitor </dev/null >/dev/null 2>"$dir/$name.err" &
    started_pid=$!
    pids+=("$started_pid")
  fi
}
start_decibar "$decibar" now
decibar_pid=$started_pid
before_pid=
if [ -n "$before" ]; then
  start_decibar "$before" before
  before_pid=$started_pid
fi
sleep 2   # all connected and past their start-up work

for pid in "$reference_pid" "$decibar_pid" $before_pid; do
  [ -e "/proc/$pid/stat" ] || { echo "bench-cpu: a capture client exited early: $(cat "$dir"/*.err)" >&2; exit 1; }
done
clients=$(pactl list short source-outputs | wc -l)
expected=$((2 + (${#before} > 0 ? 1 : 0)))
[ "$clients" -eq "$expected" ] || { echo "bench-cpu: expected $expected clients on the monitor, found $clients" >&2; exit 1; }

# Per thread: "comm nanoseconds" lines, one for each thread of the process.
thread_ticks() { for task in /proc/"$1"/task/*; do printf '%s %s\n' "$(tr ' ' _ < "$task/comm")" "$(cut -d' ' -f1 "$task/schedstat")"; done 2>/dev/null; }

b0=0; b1=0
c0=$(cpu_ticks "$reference_pid"); d0=$(cpu_ticks "$decibar_pid"); p0=$(cpu_ticks "$pulse_pid"); t0=$(now)
[ -z "$before_pid" ] || b0=$(cpu_ticks "$before_pid")
thread_ticks "$decibar_pid" > "$dir/threads0"
sleep "$window"
c1=$(cpu_ticks "$reference_pid"); d1=$(cpu_ticks "$decibar_pid"); p1=$(cpu_ticks "$pulse_pid"); t1=$(now)
[ -z "$before_pid" ] || b1=$(cpu_ticks "$before_pid")
thread_ticks "$decibar_pid" > "$dir/threads1"
elapsed=$(python3 -c "print($t1 - $t0)")

reference_pct=$(percent "$c0" "$c1" "$elapsed")
decibar_pct=$(percent "$d0" "$d1" "$elapsed")
before_pct=$(percent "$b0" "$b1" "$elapsed")
pulse_pct=$(percent "$p0" "$p1" "$elapsed")
echo "CPU over the same ${elapsed%.*} s window, demo track looping into the null sink (% of one core, from schedstat):"
printf '  %-34s %s %%\n' "$label:" "$decibar_pct"
[ -z "$before_pid" ] || printf '  %-34s %s %%\n' "the same, before ($(basename "$(dirname "$(dirname "$before")")")):" "$before_pct"
printf '  %-34s %s %%\n' "$reference_label:" "$reference_pct"
python3 -c "
d, b, c, has_before = $decibar_pct, $before_pct, $reference_pct, ${#before} > 0
if c > 0:
    print(f'  ratio decibar / $reference:{\" \" * (21 - len(\"$reference\"))}{d / c:.2f}$goal' + (f', before {b / c:.2f}' if has_before else ''))
else:
    print('  ratio decibar / $reference: n/a (the reference used no measurable CPU)')"
echo "  pulseaudio during the window:      $pulse_pct % (player + the capture clients; player alone: $pulse_alone %)"
rss() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' /proc/"$1"/status; }
printf '  resident memory at the end:        %s MiB%s\n' "$(rss "$decibar_pid")" \
  "$([ -z "$before_pid" ] || printf ', before %s MiB' "$(rss "$before_pid")")$([ "$mode" = daemon ] && echo '   (goal for the daemon: < 24 MiB)')"
python3 - "$dir/threads0" "$dir/threads1" "$elapsed" <<'PY'
import sys
def load(path):
    totals = {}
    for line in open(path):
        name, ns = line.split()
        group = "PulseAudio client thread" if name.endswith("-pulse") else "executor (line writer)" if "qos" in name else "main and other threads"
        totals[group] = totals.get(group, 0) + int(ns)
    return totals
before, after, seconds = load(sys.argv[1]), load(sys.argv[2]), float(sys.argv[3])
print("  decibar by thread:               " + ", ".join(
    f"{group} {100 * (after[group] - before.get(group, 0)) / 1e9 / seconds:.2f} %" for group in sorted(after)))
PY
