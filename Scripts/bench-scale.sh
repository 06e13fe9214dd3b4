#!/usr/bin/env bash
# decibar scale, in the same run as its references: wall time and peak memory (GNU time's maxrss,
# which covers the ffmpeg encoder decibar starts).
#  - The seed's method on a 60-minute stereo FLAC at --factor 1.5 against sox speed (resampling to
#    the same duration). Goal: faster than sox, < 64 MiB.
#  - --keep-pitch on a 2-minute stereo song at --factor 1.5 against Debian's `rubberband -3`
#    (rubberband-cli, the same R3 engine in one piece; --ignore-clipping, else it starts over with
#    less gain each time the output clips, which is not the same work). Goal: at most 0.7x its time.
# BEFORE=PATH times an earlier decibar's --keep-pitch on the same song too.
# Usage: [BEFORE=PATH] bench-scale.sh [DECIBAR_BINARY]   (default: the release build in .build-release)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
for tool in sox ffmpeg rubberband /usr/bin/time; do
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
measure "sox speed 0.6667 (resampling)" sox "$long" "$work/speed.flac" speed 0.6667
s=$(cat "$work/last")
printf '  decibar is %.1fx as fast as sox speed   (goal > 1, < 64 MiB)\n' "$(echo "$s / $d" | bc -l)"

# Two minutes of a test song (four plays of the 32 s synthetic song), 48 kHz stereo.
"$here/make-music.sh" "$work/song.wav" 1 -14
ffmpeg -v error -nostdin -y -stream_loop 3 -i "$work/song.wav" -t 120 -c:a flac "$work/two.flac"
ffmpeg -v error -nostdin -y -i "$work/two.flac" "$work/two.wav"
echo "keeping the pitch: a 2-minute stereo song to 3 minutes ($(nproc) cores):"
measure "decibar scale --factor 1.5 --keep-pitch" "$decibar" scale "$work/two.flac" -o "$work/kept.flac" --factor 1.5 --keep-pitch
k=$(cat "$work/last")
if [ -n "${BEFORE:-}" ]; then
  measure "the same, before" "$BEFORE" scale "$work/two.flac" -o "$work/kept-before.flac" --factor 1.5 --keep-pitch
  b=$(cat "$work/last")
fi
measure "rubberband -3 --ignore-clipping -t 1.5" rubberband -3 --ignore-clipping -q -t 1.5 "$work/two.wav" "$work/rubberband.wav"
r=$(cat "$work/last")
printf '  --keep-pitch takes %.2fx the time of rubberband -3   (goal <= 0.7)%s\n' "$(echo "$k / $r" | bc -l)" \
  "$([ -n "${BEFORE:-}" ] && printf ', before %.2fx' "$(echo "$b / $r" | bc -l)")"
