#!/usr/bin/env bash
# Player benchmarks on a private PulseAudio + Xvfb: scrubber overview of a 60-minute stereo FLAC
# against `ffmpeg -f null` on the same file, its peak memory, launch to first frame, and seek
# latency under real X pointer events. See bench-player.py for the method.
#
# Usage: bench-player.sh [DECIBAR_BINARY]   (default: the release build in .build-release)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}

for tool in pulseaudio pactl Xvfb xdotool ffmpeg python3; do
  command -v "$tool" >/dev/null || { echo "bench-player: $tool not found (run Scripts/install-deps.sh --bench)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-player: no decibar binary at $decibar (swift build -c release --product decibar --scratch-path .build-release)" >&2; exit 1; }

# The 60-minute file takes a while to encode; keep it between runs.
fixtures="$root/.build-release/bench-fixtures"
mkdir -p "$fixtures"
long="$fixtures/hour.flac"
if [ ! -s "$long" ]; then
  echo "making a 60-minute stereo 44.1 kHz FLAC (once)..."
  ffmpeg -v error -nostdin -y -f lavfi -i "anoisesrc=color=pink:amplitude=0.25:sample_rate=44100:duration=3600" \
    -f lavfi -i "sine=frequency=220:sample_rate=44100:duration=3600" \
    -filter_complex "[0][1]amix=inputs=2:normalize=0,volume='0.6+0.4*sin(2*PI*t/7)':eval=frame,pan=stereo|c0=c0|c1=0.8*c0" \
    -sample_fmt s16 "$long.tmp.flac"
  mv "$long.tmp.flac" "$long"
fi
short="$fixtures/short.wav"
[ -s "$short" ] || "$here/demo-signal.sh" "$short"

. "$here/rig.sh"
rig_start dbp
python3 "$here/bench-player.py" "$decibar" "$long" "$short" "$dir"
