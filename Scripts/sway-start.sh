#!/usr/bin/env bash
# Starts a private headless sway (a wlroots compositor with wlr-layer-shell) in DIR and waits until
# it answers. Prints the WAYLAND_DISPLAY value (an absolute socket path). Stop it with
# sway-stop.sh DIR. Usage: sway-start.sh DIR [WIDTHxHEIGHT] [SCALE]
#
# sway refuses to run as root, so as root it runs as nobody, in a runtime folder of that user's;
# clients (root) reach its socket all the same. No Xwayland, no wallpaper client (swaybg would be
# one more background layer); software rendering (pixman).
set -euo pipefail
# The config is read by nobody: a caller's private mask (077) must not make it root's alone.
umask 022
dir=${1:?usage: sway-start.sh DIR [WIDTHxHEIGHT] [SCALE]}
size=${2:-1280x720}
scale=${3:-1}
mkdir -p "$dir"
# The runtime folder is one nobody can reach whatever DIR's parents allow; DIR/sway points to it.
# In TMPDIR: the test runner's scratch folder is passable (0711), and it sweeps what is left there.
if [ -L "$dir/sway" ]; then rm -rf "$(readlink "$dir/sway")" "$dir/sway"; fi
runtime=$(mktemp -d "${TMPDIR:-/tmp}/decibar-sway.XXXXXX")
ln -s "$runtime" "$dir/sway"
cat > "$dir/sway/config" <<CONFIG
xwayland disable
default_border none
default_floating_border none
focus_follows_mouse no
output HEADLESS-1 resolution $size scale $scale
CONFIG
as=()
if [ "$(id -u)" = 0 ]; then
  chown nobody:nogroup "$runtime"
  as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
chmod 700 "$runtime"
# sway keeps every descriptor it inherits; a caller waiting for this script's pipes or its
# end (Foundation's Process does) would wait for sway's, so only 0-2 are passed on.
(
  for fd in /proc/$BASHPID/fd/*; do
    n=${fd##*/}
    if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi
  done
  exec env -i PATH="$PATH" HOME="$runtime" XDG_RUNTIME_DIR="$runtime" WLR_BACKENDS=headless WLR_RENDERER=pixman \
    WLR_LIBINPUT_NO_DEVICES=1 WLR_HEADLESS_OUTPUTS=1 "${as[@]}" sway -c "$runtime/config" </dev/null >"$dir/sway.log" 2>&1
) &
echo $! > "$dir/sway.pid"
for _ in $(seq 1 200); do
  socket=$(ls "$dir"/sway/sway-ipc.*."$(cat "$dir/sway.pid")".sock 2>/dev/null | head -1 || true)
  if [ -S "$dir/sway/wayland-1" ] && [ -n "$socket" ] && SWAYSOCK="$socket" swaymsg -t get_outputs >/dev/null 2>&1; then
    echo "$dir/sway/wayland-1"
    exit 0
  fi
  if ! kill -0 "$(cat "$dir/sway.pid")" 2>/dev/null; then break; fi
  sleep 0.05
done
echo "sway-start: sway did not start; its log:" >&2
# Less the two lines every headless start logs (no DRM device), so the cause comes first.
grep -v -e drmGetDevices2 -e wlr_drm_lease "$dir/sway.log" | tail -5 >&2 || true
# Nothing left behind: the caller has no compositor to stop.
"$(dirname "$0")/sway-stop.sh" "$dir" >/dev/null 2>&1 || true
exit 1
