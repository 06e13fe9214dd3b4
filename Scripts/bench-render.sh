#!/usr/bin/env bash
# Render speed of `decibar render` against ffmpeg encoding the same frames alone, same run.
#
# Method, for 1280x720 at 30 fps and 1920x1080 at 60 fps, 10 s of the demo track each:
#   1. decibar renders to a folder of PNG frames (the exact frames the video gets), which ffmpeg
#      turns into one raw RGBA file in /dev/shm (RAM: 1.1 GB and 5 GB);
#   2. timed: `decibar render ... -o out.mp4` (draw, read back, pipe to ffmpeg: H.264 + AAC);
#   3. timed: ffmpeg alone encoding that raw file with exactly the arguments decibar gives it.
# Decibar's overhead = time(2) / time(3): how much longer a render takes than the encoding it
# feeds (goal <= 1.3). Each timing is the median of 3 runs, alternating.
#
# Usage: bench-render.sh [DECIBAR_BINARY]   (default: the release build in .build-release)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
for tool in ffmpeg python3; do
  command -v "$tool" >/dev/null || { echo "bench-render: $tool not found (apt-get install ffmpeg python3)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-render: no decibar binary at $decibar" >&2; exit 1; }
work=$(mktemp -d /tmp/dbr.XXXXXX)
raw=$(mktemp -d /dev/shm/dbr.XXXXXX)
trap 'rm -rf "$work" "$raw"' EXIT
"$here/demo-signal.sh" "$work/demo.wav"
export XDG_CACHE_HOME="$work/cache"
python3 - "$decibar" "$work" "$raw" <<'PY'
import os, statistics, subprocess, sys, time
decibar, work, shm = sys.argv[1:4]
audio = os.path.join(work, "demo.wav")

def timed(command):
    start = time.monotonic()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0:
        sys.exit(f"bench-render: {' '.join(command)} failed: {result.stderr.decode(errors='replace').strip()}")
    return time.monotonic() - start

for width, height, fps in ((1280, 720, 30), (1920, 1080, 60)):
    size = f"{width}x{height}"
    frames = os.path.join(work, f"frames-{size}/")
    subprocess.run([decibar, "render", audio, "-o", frames, "--size", size, "--fps", str(fps), "--duration", "10"],
                   check=True, stderr=subprocess.DEVNULL)
    pattern = os.path.join(frames, "frame-%06d.png")
    raw = os.path.join(shm, f"{size}.rgba")
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-framerate", str(fps), "-i", pattern,
                    "-f", "rawvideo", "-pix_fmt", "rgba", raw], check=True)
    # The very arguments decibar passes to ffmpeg for an .mp4 (RenderOutput.ffmpegArguments).
    encode = ["-v", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", size, "-framerate", str(fps),
              "-i", raw, "-i", audio, "-map", "0:v:0", "-map", "1:a:0?", "-vf", "vflip", "-c:v", "libx264",
              "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "192k",
              "-movflags", "+faststart", "-shortest", os.path.join(work, "alone.mp4")]
    ours, alone = [], []
    for _ in range(3):
        ours.append(timed([decibar, "render", audio, "-o", os.path.join(work, "ours.mp4"), "--size", size,
                           "--fps", str(fps), "--duration", "10"]))
        alone.append(timed(["ffmpeg"] + encode))
    os.remove(raw)
    o, a = statistics.median(ours), statistics.median(alone)
    count = 10 * fps
    print(f"{size} at {fps} fps, {count} frames:")
    print(f"  decibar render:                  {' '.join(f'{t:.2f}' for t in ours)} s, median {o:.2f} s ({count / o:.0f} frames/s)")
    print(f"  ffmpeg encoding the raw frames:  {' '.join(f'{t:.2f}' for t in alone)} s, median {a:.2f} s")
    print(f"  overhead = {o:.2f} / {a:.2f} = {o / a:.2f}x   (goal <= 1.3x)")
PY
