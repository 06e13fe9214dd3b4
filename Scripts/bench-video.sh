#!/usr/bin/env bash
# Video playback on a private PulseAudio + Xvfb (Mesa's llvmpipe: the picture is drawn on the CPU):
#  1. CPU and peak memory of `decibar play` on a 720p30 H.264 file with a synthetic song, with the
#     picture (under the bars) against --video-layout off, same run, three alternating runs each;
#  2. a 1080p60 H.264 file through the daemon (window 1280x720): frames shown on time against
#     frames dropped (the status' player.video counts), and the display frames' intervals.
# Usage: bench-video.sh [DECIBAR_BINARY] [SECONDS]   (default: the release build, 20 s per run)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
seconds=${2:-20}
for tool in pulseaudio Xvfb python3 ffmpeg; do
  command -v "$tool" >/dev/null || { echo "bench-video: $tool not found (run Scripts/install-deps.sh --bench)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-video: no decibar binary at $decibar (swift build -c release --product decibar --scratch-path .build-release)" >&2; exit 1; }
fixtures="$root/.build-release/bench-fixtures"
mkdir -p "$fixtures"
song="$fixtures/video-song.wav"
[ -s "$song" ] || "$here/make-music.sh" "$song" 1 -14
length=$((seconds + 10))
for spec in "720p30 1280x720 30" "1080p60 1920x1080 60"; do
  set -- $spec
  file="$fixtures/video-$1-$length.mp4"
  [ -s "$file" ] || ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=$2:rate=$3:duration=$length" -i "$song" \
    -map 0:v -map 1:a -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p -c:a aac -b:a 160k -shortest "$file.part.mp4" \
    && mv "$file.part.mp4" "$file"
done
. "$here/rig.sh"
rig_start dbv
trap rig_stop EXIT
python3 - "$decibar" "$fixtures/video-720p30-$length.mp4" "$fixtures/video-1080p60-$length.mp4" "$seconds" "$dir" <<'PY'
import json, os, socket, statistics, subprocess, sys, time
decibar, hd, fhd, seconds, scratch = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]

def play(extra):
    start = time.monotonic()
    process = subprocess.Popen([decibar, "play", hd, "--size", "1280x720"] + extra, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(seconds)
    process.terminate()
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, -15, 143):
        sys.exit(f"bench-video: decibar exited with {code}: {errors.decode(errors='replace').strip()}")
    return 100 * (usage.ru_utime + usage.ru_stime) / (time.monotonic() - start), usage.ru_maxrss / 1024

picture, off = [], []
for _ in range(3):
    picture.append(play([]))
    off.append(play(["--video-layout", "off"]))
print(f"playing a 720p30 H.264 file with a song for {seconds:.0f} s, window 1280x720, 3 alternating runs each:")
for label, runs in (("with the picture (under the bars)", picture), ("--video-layout off", off)):
    print(f"  {label:36s} CPU {statistics.median(r[0] for r in runs):5.1f} %  (runs {', '.join(f'{r[0]:.1f}' for r in runs)})"
          f"  peak RSS {max(r[1] for r in runs):5.0f} MiB")
a, b = statistics.median(r[0] for r in off), statistics.median(r[0] for r in picture)
print(f"  the picture costs {b - a:+.1f} % of a core (x{b / a:.2f})")

# 1080p60 through the daemon, whose status counts the frames.
sock = os.path.join(scratch, "control.sock")
log = os.path.join(scratch, "frames.log")
daemon = subprocess.Popen([decibar, "daemon", "--window", "shown", "--size", "1280x720", "--socket", sock, "--frame-log", log],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def request(words):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(sock)
        s.sendall((json.dumps({"command": words, "request_id": 1}) + "\n").encode())
        line = b""
        while not line.endswith(b"\n"):
            line += s.recv(65536)
        return json.loads(line)
try:
    for _ in range(100):
        if os.path.exists(sock): break
        time.sleep(0.1)
    request(["open", fhd])
    time.sleep(2)
    first = request(["get_status"])["data"]["player"]["video"]
    mark = time.monotonic()
    time.sleep(seconds)
    last = request(["get_status"])["data"]["player"]["video"]
    elapsed = time.monotonic() - mark
    usage = open(f"/proc/{daemon.pid}/status").read()
    peak = int([l for l in usage.splitlines() if l.startswith("VmHWM")][0].split()[1]) / 1024
finally:
    daemon.terminate()
    daemon.wait()
shown, dropped = last["shown"] - first["shown"], last["dropped"] - first["dropped"]
total = shown + dropped
print(f"playing a 1080p60 H.264 file through the daemon for {elapsed:.0f} s (after 2 s), window 1280x720:")
print(f"  frames due {total:.0f} ({total / elapsed:.1f}/s): shown on time {shown:.0f} ({100 * shown / max(1, total):.1f} %), dropped late {dropped:.0f};"
      f" peak RSS {peak:.0f} MiB")
times = [float(l.split()[0]) for l in open(log) if l.strip()]
times = [t for t in times if t >= mark - 0.0]
gaps = sorted(1000 * (b - a) for a, b in zip(times, times[1:]))
if gaps:
    q = lambda p: gaps[min(len(gaps) - 1, int(p * len(gaps)))]
    print(f"  display frames {len(gaps) + 1} ({len(gaps) / max(1e-9, times[-1] - times[0]):.1f}/s): interval median {q(0.5):.1f} ms,"
          f" p90 {q(0.9):.1f} ms, p99 {q(0.99):.1f} ms, longest {gaps[-1]:.1f} ms")
PY
