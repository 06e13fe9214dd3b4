#!/usr/bin/env bash
# CPU and memory of `decibar play` on the 60-minute FLAC at rate 1.5, and at rate 1.5 with pitch
# +300 cents (Rubber Band's R3 engine stretching on the player's stage thread), against rate 1 (the
# audio goes around the stretcher), in the same run on a private PulseAudio + Xvfb: runs alternate,
# three of each, SECONDS apiece. CPU is the player's user+system time over the wall time (wait4).
# Usage: bench-rate.sh [DECIBAR_BINARY] [SECONDS]   (default: the release build, 20 s per run)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
seconds=${2:-20}
for tool in pulseaudio Xvfb python3; do
  command -v "$tool" >/dev/null || { echo "bench-rate: $tool not found (run Scripts/install-deps.sh --bench)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-rate: no decibar binary at $decibar (swift build -c release --product decibar --scratch-path .build-release)" >&2; exit 1; }
long=$("$here/bench-hour.sh")
. "$here/rig.sh"
rig_start dbs
trap rig_stop EXIT
python3 - "$decibar" "$long" "$seconds" <<'PY'
import os, statistics, subprocess, sys, time
decibar, hour, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])

def run(extra):
    start = time.monotonic()
    process = subprocess.Popen([decibar, "play", hour, "--size", "640x360"] + extra,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(seconds)
    process.terminate()
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, -15, 143):
        sys.exit(f"bench-rate: decibar exited with {code}: {errors.decode(errors='replace').strip()}")
    return 100 * (usage.ru_utime + usage.ru_stime) / (time.monotonic() - start), usage.ru_maxrss / 1024

normal, faster, stretched = [], [], []
for _ in range(3):
    normal.append(run([]))
    faster.append(run(["--rate", "1.5"]))
    stretched.append(run(["--rate", "1.5", "--pitch", "300"]))
print(f"playing {os.path.basename(hour)} (60 min) for {seconds:.0f} s, window 640x360, 3 alternating runs each:")
for label, runs in (("rate 1 (around the stretcher)", normal), ("rate 1.5 (Rubber Band R3)", faster),
                   ("rate 1.5, pitch +300 (Rubber Band R3)", stretched)):
    cpu = statistics.median(r[0] for r in runs)
    print(f"  {label:40s} CPU {cpu:5.1f} %  (runs {', '.join(f'{r[0]:.1f}' for r in runs)})  peak RSS {max(r[1] for r in runs):5.0f} MiB")
a = statistics.median(r[0] for r in normal)
for label, runs in (("rate 1.5", faster), ("rate 1.5, pitch +300", stretched)):
    b = statistics.median(r[0] for r in runs)
    print(f"  {label} costs {b - a:+.1f} % of a core, x{b / a:.2f} the CPU of normal playback")
PY
