#!/usr/bin/env bash
# The README's pictures of the window explaining itself, taken from the daemon's own window on a
# private Xvfb and PulseAudio, the synthetic song playing in its player: the controller (the
# pointer moved over the window), the preset list searched for "geiss" over Milkdrop, and the key
# list (?). Each is the window's next frame (ctl screenshot), so no pointer is drawn on it.
# Usage: window-pictures.sh DECIBAR_BINARY [OUTPUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: window-pictures.sh DECIBAR_BINARY [OUTPUT_DIR]}
out=$(mkdir -p "${2:-docs/images}" && cd "${2:-docs/images}" && pwd)

. "$here/rig.sh"
rig_start dbp
export XDG_STATE_HOME="$dir/state" XDG_CACHE_HOME="$dir/cache"
"$here/make-music.sh" "$dir/song.wav" 1 -14 >/dev/null
: > "$dir/config.toml"
"$bin" daemon --config "$dir/config.toml" --size 960x540 --theme sunset --bars 48 >"$dir/daemon.log" 2>&1 &
pids+=("$!")
for _ in $(seq 50); do "$bin" ctl status >/dev/null 2>&1 && break; sleep 0.1; done
"$bin" ctl show >/dev/null
"$bin" ctl open "$dir/song.wav" >/dev/null
sleep 6
id=$(xdotool search --classname '^decibar$' | head -1)
key() { xdotool windowfocus --sync "$id" key "$@"; }

xdotool mousemove --window "$id" 400 300 mousemove --window "$id" 420 310
sleep 0.2
"$bin" ctl screenshot "$out/controller.png" >/dev/null

key question
sleep 0.5
"$bin" ctl screenshot "$out/help.png" >/dev/null
key question

"$bin" ctl set mode milkdrop >/dev/null
"$bin" ctl preset "Geiss - Luz" >/dev/null
sleep 4
key L
xdotool type --delay 60 "geiss"
sleep 0.5
"$bin" ctl screenshot "$out/picker.png" >/dev/null
key Escape
"$bin" ctl quit >/dev/null
echo "pictures written to $out: controller.png help.png picker.png"
