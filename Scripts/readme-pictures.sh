#!/usr/bin/env bash
# Renders the README's pictures with Decibar itself: the demo track played into a private
# PulseAudio, the live window under Xvfb, a screenshot of its last frame.
# Usage: readme-pictures.sh DECIBAR_BINARY [OUTPUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: readme-pictures.sh DECIBAR_BINARY [OUTPUT_DIR]}
out=${2:-docs/images}
mkdir -p "$out"
work=$(mktemp -d /tmp/decibar-pics.XXXXXX)
player=""
cleanup() {
  [ -n "$player" ] && kill "$player" 2>/dev/null || true
  "$here/pulse-stop.sh" "$work/pa" || true
  "$here/xvfb-stop.sh" "$work/x" || true
  rm -rf "$work"
}
trap cleanup EXIT
PULSE_SERVER=$("$here/pulse-start.sh" "$work/pa")
DISPLAY=$("$here/xvfb-start.sh" "$work/x")
export PULSE_SERVER DISPLAY PULSE_COOKIE="$work/pa/cookie"
"$here/demo-signal.sh" "$work/demo.wav"
paplay "$work/demo.wav" & player=$!
# Frames at different moments of the beat: on the kick, and between beats.
"$bin" live --size 1280x720 --bars 64 --exit-after 4.02 --screenshot "$out/live.png" 2>/dev/null
"$bin" live --size 1280x720 --bars 24 --exit-after 3.77 --screenshot "$out/live-24-bars.png" 2>/dev/null
kill "$player" 2>/dev/null || true; player=""
# The player: bars above the scrubber, part-played, with the pointer hovering over the scrubber.
"$bin" play "$work/demo.wav" --size 1280x720 --exit-after 9 --screenshot "$out/play.png" 2>/dev/null &
viewer=$!
sleep 8
command -v xdotool >/dev/null && xdotool mousemove 900 590 || true
wait "$viewer"
echo "pictures written to $out"
