#!/usr/bin/env bash
# The scrubber zoomed on a long file: a 60-minute FLAC (made here by ffmpeg, a tone whose loudness
# swells twice a second) opened in the daemon's window under a private Xvfb and PulseAudio. After
# its overview is done, the playhead goes to RUNS places spread over the hour and the scrubber is
# zoomed there to 10 ms a pixel (`ctl zoom 1000`, clamped to the finest); each time, how long until
# a frame showing it is drawn (the `screenshot` reply's `drawn_at`, against CLOCK_MONOTONIC before
# the zoom). Beside it, in the same run, the same wait for a frame with nothing changed: what any
# frame costs. Also the daemon's resident memory before the first zoom and after the last.
#
# Goal (issue 36): the zoomed range shows within 300 ms; memory stays within the overview's bound.
#
# Usage: bench-zoom.sh [DECIBAR_BINARY] [RUNS]   (defaults: .build/release/decibar, from make release; 12)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
decibar=${1:-$root/.build/release/decibar}
runs=${2:-12}
[ -x "$decibar" ] || { echo "bench-zoom: no binary at $decibar (make release builds it)" >&2; exit 2; }
work=$(mktemp -d /tmp/decibar-zoom.XXXXXX)
daemon_pid=
cleanup() {
  [ -n "$daemon_pid" ] && kill "$daemon_pid" 2> /dev/null
  wait 2> /dev/null || true
  "$root/Scripts/pulse-stop.sh" "$work/pa" > /dev/null 2>&1 || true
  "$root/Scripts/xvfb-stop.sh" "$work/x" > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
PULSE_SERVER=$("$root/Scripts/pulse-start.sh" "$work/pa")
DISPLAY=$("$root/Scripts/xvfb-start.sh" "$work/x")
export PULSE_SERVER DISPLAY PULSE_COOKIE="$work/pa/cookie" XDG_RUNTIME_DIR="$work/pa/run" XDG_CACHE_HOME="$work/cache" \
  XDG_CONFIG_HOME="$work/config"
ffmpeg -v error -nostdin -f lavfi -i "aevalsrc=(0.1+0.8*abs(sin(2*PI*t)))*sin(2*PI*440*t):s=48000:d=3600" \
  -ac 2 -compression_level 0 "$work/hour.flac"
"$decibar" daemon --size 1280x720 > "$work/daemon.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 200); do [ -S "$XDG_RUNTIME_DIR/decibar/control.sock" ] && break; sleep 0.05; done

python3 - "$decibar" "$runs" "$daemon_pid" "$work" <<'PY'
import glob, json, statistics, subprocess, sys, time
decibar, runs, pid, work = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def ctl(*words):
    done = subprocess.run([decibar, "ctl", *words], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench-zoom: ctl {' '.join(words)}: {done.stderr.strip()}")
    return done.stdout.strip()

def player():
    return json.loads(subprocess.run([decibar, "ctl", "--json", "status"], capture_output=True, text=True).stdout or "{}").get("player", {})

def resident_mib():
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024

def frame_after(action):
    """Seconds from just before `action` until a frame drawn after it."""
    start = time.monotonic()
    action()
    reply = json.loads(ctl("screenshot", f"{work}/shot.png"))
    return reply["drawn_at"] - start

ctl("show")
ctl("open", f"{work}/hour.flac")
began = time.monotonic()
# The overview is done when it is written to the cache (the length is known from the header before).
while not glob.glob(f"{work}/cache/decibar/*.dat"):
    if time.monotonic() - began > 300:
        sys.exit("bench-zoom: the overview was not done within 300 s")
    time.sleep(0.1)
print(f"bench-zoom: the hour's overview done {time.monotonic() - began:.1f} s after opening")
ctl("pause")
before = resident_mib()
zoomed, plain, spans = [], [], []
for run in range(runs):
    ctl("seek", str(150 + run * 3300 / max(1, runs - 1)))
    ctl("zoom", "1")
    plain.append(frame_after(lambda: None))
    zoomed.append(frame_after(lambda: ctl("zoom", "1000")))
    view = player()["view"]
    spans.append(view["end"] - view["start"])
after = resident_mib()
def describe(values):
    values = sorted(values)
    return f"median {statistics.median(values) * 1000:.0f} ms, max {values[-1] * 1000:.0f} ms"
print(f"bench-zoom: {runs} zooms to {statistics.median(spans):.2f} s across the scrubber (10 ms a pixel)")
print(f"bench-zoom: zoomed frame drawn: {describe(zoomed)}   (goal 300 ms)")
print(f"bench-zoom: a frame with nothing changed, same run: {describe(plain)}")
print(f"bench-zoom: daemon resident memory {before:.0f} MiB before the first zoom, {after:.0f} MiB after the last")
PY
