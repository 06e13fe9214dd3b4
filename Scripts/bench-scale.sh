#!/usr/bin/env bash
# decibar scale of a 60-minute stereo FLAC at --factor 1.5 (the seed's method, and --keep-pitch
# with Rubber Band) against sox's speed and tempo effects
# making the same duration from the same file, in the same run: wall time and peak memory (GNU
# time's maxrss, which covers the ffmpeg encoder decibar starts). Goal: faster than sox, < 64 MiB.
# Usage: bench-scale.sh [DECIBAR_BINARY]   (default: the release build in .build-release)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
for tool in sox ffmpeg /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench-scale: $tool not found (run Scripts/install-deps.sh --bench)" >&2; exit 1; }
done
long=$("$here/bench-hour.sh")
work=$(mktemp -d /tmp/decibar-bench-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT
measure() {  # label command...
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  read -r seconds kib < "$work/time"
  printf '  %-44s %7.2f s  %6.1f MiB\n' "$label" "$seconds" "$(echo "$kib / 1024" | bc -l)"
  echo "$seconds" > "$work/last"
}
echo "scaling $(basename "$long") (60 min) to 90 min, FLAC out:"
measure "decibar scale --factor 1.5 (seed's method)" "$decibar" scale "$long" -o "$work/decibar.flac" --factor 1.5
d=$(cat "$work/last")
measure "decibar scale --factor 1.5 --keep-pitch" "$decibar" scale "$long" -o "$work/kept.flac" --factor 1.5 --keep-pitch
k=$(cat "$work/last")
measure "sox speed 0.6667 (resampling)" sox "$long" "$work/speed.flac" speed 0.6667
s=$(cat "$work/last")
measure "sox tempo 0.6667 (WSOLA, pitch kept)" sox "$long" "$work/tempo.flac" tempo 0.6667
t=$(cat "$work/last")
printf '  decibar is %.1fx as fast as sox speed, %.1fx as fast as sox tempo   (goal > 1, < 64 MiB)\n' \
  "$(echo "$s / $d" | bc -l)" "$(echo "$t / $d" | bc -l)"
printf '  --keep-pitch is %.2fx as fast as sox tempo (both keep the pitch), %.2fx as fast as sox speed\n' \
  "$(echo "$t / $k" | bc -l)" "$(echo "$s / $k" | bc -l)"
