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
# The other modes and looks, with the track 10 dB quieter so the bars keep some headroom
# (PulseAudio volumes are cubic: 65536 * 10^(-10/60) is -10 dB).
paplay --volume=44784 "$work/demo.wav" & player=$!
"$bin" live --mode spectrum --caps --size 1280x720 --bars 64 --exit-after 4.3 --screenshot "$out/spectrum.png" 2>/dev/null
"$bin" live --mode meter --size 1280x720 --exit-after 3.1 --screenshot "$out/meter.png" 2>/dev/null
"$bin" live --orientation bottom --theme fire --caps --bar-width 14 --bar-spacing 4 --size 1280x720 --exit-after 3.6 \
  --screenshot "$out/bottom-fire.png" 2>/dev/null
"$bin" live --mode spectrum --orientation top --theme ocean --size 1280x720 --bars 48 --exit-after 3.2 \
  --screenshot "$out/top-ocean.png" 2>/dev/null
"$bin" live --background transparent --theme sunset --size 1280x720 --bars 32 --exit-after 3.4 \
  --screenshot "$out/transparent.png" 2>/dev/null
"$bin" live --shader-dir "$here/../Shaders/examples" --theme forest --size 1280x720 --bars 40 --exit-after 3.3 \
  --screenshot "$out/shader.png" 2>/dev/null
kill "$player" 2>/dev/null || true; player=""
# The player: bars above the scrubber, part-played, with the pointer hovering over the scrubber.
"$bin" play "$work/demo.wav" --size 1280x720 --exit-after 9 --screenshot "$out/play.png" 2>/dev/null &
viewer=$!
sleep 8
command -v xdotool >/dev/null && xdotool mousemove 900 590 || true
wait "$viewer"
echo "pictures written to $out"
