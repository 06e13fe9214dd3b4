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

fixtures="$root/.build-release/bench-fixtures"
long=$("$here/bench-hour.sh")
short="$fixtures/short.wav"
[ -s "$short" ] || "$here/demo-signal.sh" "$short"

. "$here/rig.sh"
rig_start dbp
python3 "$here/bench-player.py" "$decibar" "$long" "$short" "$dir"
