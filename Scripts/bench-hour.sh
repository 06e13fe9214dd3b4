#!/usr/bin/env bash
# Prints the path of the benchmarks' 60-minute stereo 44.1 kHz FLAC (pink noise and a 220 Hz tone
# under a slow swell), making it once: it takes a while to encode, so it is kept between runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fixtures="$root/.build-release/bench-fixtures"
mkdir -p "$fixtures"
long="$fixtures/hour.flac"
if [ ! -s "$long" ]; then
  echo "making a 60-minute stereo 44.1 kHz FLAC (once)..." >&2
  ffmpeg -v error -nostdin -y -f lavfi -i "anoisesrc=color=pink:amplitude=0.25:sample_rate=44100:duration=3600" \
    -f lavfi -i "sine=frequency=220:sample_rate=44100:duration=3600" \
    -filter_complex "[0][1]amix=inputs=2:normalize=0,volume='0.6+0.4*sin(2*PI*t/7)':eval=frame,pan=stereo|c0=c0|c1=0.8*c0" \
    -sample_fmt s16 "$long.tmp.flac"
  mv "$long.tmp.flac" "$long"
fi
echo "$long"
