#!/usr/bin/env bash
# Opens the live window. On a desktop it taps the user's own sound server. Where no server runs
# (a fresh or headless machine) it starts a private PulseAudio with a null sink and plays a demo
# track into it, so the window always shows something alive. Without any display it renders under
# Xvfb for 10 seconds and saves a screenshot instead.
# Usage: run-live.sh DECIBAR_BINARY [decibar live options...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: run-live.sh DECIBAR_BINARY [options]}
shift
work=$(mktemp -d /tmp/decibar-run.XXXXXX)
player=""
cleanup() {
  [ -n "$player" ] && kill "$player" 2>/dev/null || true
  "$here/pulse-stop.sh" "$work/pa" 2>/dev/null || true
  "$here/xvfb-stop.sh" "$work/x" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if pactl info >/dev/null 2>&1; then
  echo "run: using your sound server; play some music to see it move"
else
  echo "run: no sound server found; starting a private one with a demo track"
  PULSE_SERVER=$("$here/pulse-start.sh" "$work/pa")
  export PULSE_SERVER PULSE_COOKIE="$work/pa/cookie"
  "$here/demo-signal.sh" "$work/demo.wav"
  ( while paplay "$work/demo.wav"; do :; done ) >/dev/null 2>&1 &
  player=$!
fi

extra=()
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  mkdir -p out
  DISPLAY=$("$here/xvfb-start.sh" "$work/x")
  export DISPLAY
  echo "run: no display; drawing under Xvfb for 10 s and saving the last frame to out/live.png"
  extra=(--exit-after 10 --screenshot out/live.png)
fi
"$bin" live "${extra[@]}" "$@"
