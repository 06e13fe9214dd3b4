#!/usr/bin/env bash
# Starts a private PipeWire server in DIR (pipewire, wireplumber, pipewire-pulse, and a D-Bus session
# bus, without which wireplumber exits) with a null sink, and waits until it answers like PulseAudio.
# Prints the PULSE_SERVER value. Usage: pipewire-start.sh DIR [SINK_NAME]
# Stop it with pipewire-stop.sh DIR. Works again on the same DIR after a stop or a kill -9.
set -euo pipefail
dir=${1:?usage: pipewire-start.sh DIR [SINK_NAME]}
sink=${2:-viz}
# Unix socket paths must stay under 108 bytes; run/pipewire-0 is the longest.
if [ ${#dir} -ge 85 ]; then echo "pipewire-start: directory path too long: $dir" >&2; exit 1; fi
conf="$dir/config"
mkdir -p "$dir/run" "$dir/home" "$dir/state" "$conf/wireplumber/main.lua.d"
chmod 700 "$dir/run"
socket="$dir/pulse.sock" bus="unix:path=$dir/run/bus"
# A clean environment: nothing from the caller's session (PIPEWIRE_*, PULSE_*, DBUS_*, DISPLAY),
# nothing in the real home.
# (An array, not a function: "${run[@]}" CMD & must exec CMD in the child so that $! is its PID.)
run=(env -i PATH="$PATH" HOME="$dir/home" XDG_RUNTIME_DIR="$dir/run" XDG_CONFIG_HOME="$conf"
  XDG_STATE_HOME="$dir/state" XDG_DATA_HOME="$dir/home" DBUS_SESSION_BUS_ADDRESS="$bus")
here=$(cd "$(dirname "$0")" && pwd)
fail() {
  "$here/pipewire-stop.sh" "$dir" || true
  echo "pipewire-start: $1 did not start; see $dir/$1.log (and $dir/*.log)" >&2
  exit 1
}
# wait_for NAME COMMAND...: up to 5 s until COMMAND succeeds, while process NAME lives.
wait_for() {
  local name=$1; shift
  for _ in $(seq 1 250); do
    "$@" >/dev/null 2>&1 && return 0
    kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null || break
    sleep 0.02
  done
  fail "$name"
}
# Now and then (about 1 start in 100 here) WirePlumber's "default" metadata (which holds the
# default sink) stops telling the clients already listening that a value changed: PipeWire's
# metadata module holds back every change while a bind of it waits for WirePlumber's answer, and
# never forgets a bind whose client left before that answer (pipewire-pulse binds it for each of
# the start's pactl calls). Starting WirePlumber again cures it. The check: a listener that is
# already there must hear a probe key being set.
metadata_notifies() {
  local heard="$dir/metadata-probe"
  "${run[@]}" pw-metadata -m -n default >"$heard" 2>&1 &
  local listener=$! result=1
  for _ in $(seq 1 100); do grep -q '^Found' "$heard" && break; sleep 0.01; done
  sleep 0.05   # its first listing of the values arrives right after
  "${run[@]}" pw-metadata -n default 0 decibar.probe "$RANDOM$RANDOM" >/dev/null 2>&1
  for _ in $(seq 1 100); do grep -q "key:'decibar.probe'" "$heard" && { result=0; break; }; sleep 0.01; done
  kill "$listener" 2>/dev/null; wait "$listener" 2>/dev/null
  "${run[@]}" pw-metadata -n default -d 0 decibar.probe >/dev/null 2>&1
  return "$result"
}
start_wireplumber() {
  "${run[@]}" wireplumber </dev/null >>"$dir/wireplumber.log" 2>&1 &
  echo $! > "$dir/wireplumber.pid"
}
# A server still running here would answer in place of the new one: refuse.
lock="$dir/run/pipewire-0.lock"
if [ -e "$lock" ] && ! flock -n "$lock" true; then echo "pipewire-start: already running in $dir" >&2; exit 1; fi
# Leftovers of an earlier run (e.g. the bus, when only pipewire was killed) go first.
"$here/pipewire-stop.sh" "$dir"
# WirePlumber: no hardware monitors; no restore-stream, so that nothing about streams survives a
# restart (like PulseAudio without default.pa).
cat > "$conf/wireplumber/main.lua.d/51-decibar.lua" <<'EOF'
alsa_monitor.enabled = false
v4l2_monitor.enabled = false
libcamera_monitor.enabled = false
stream_defaults.enabled = false
EOF
# pipewire-pulse: listens on $socket and creates the sink itself, so it is back after a restart.
# Its module-null-sink ignores format= (the sink is float32 anyway) and norewinds=.
cat > "$dir/pipewire-pulse.conf" <<EOF
context.spa-libs = { audio.convert.* = audioconvert/libspa-audioconvert  support.* = support/libspa-support }
context.modules = [
  { name = libpipewire-module-rt  args = { nice.level = -11 }  flags = [ ifexists nofail ] }
  { name = libpipewire-module-protocol-native }
  { name = libpipewire-module-client-node }
  { name = libpipewire-module-adapter }
  { name = libpipewire-module-metadata }
  { name = libpipewire-module-protocol-pulse }
]
pulse.properties = { server.address = [ "unix:$socket" ] }
pulse.cmd = [
  { cmd = "load-module"  args = "module-null-sink sink_name=$sink rate=48000 channels=2 format=float32le" }
]
EOF
# After a kill -9: the bus socket would block dbus-daemon. PipeWire's lock files are flock()s, and
# pipewire and pipewire-pulse replace stale sockets themselves.
rm -f "$dir/run/bus" "$dir/dbus.address"
"${run[@]}" dbus-daemon --session --nofork --nopidfile --address="$bus" --print-address \
  </dev/null >"$dir/dbus.address" 2>"$dir/dbus-daemon.log" &
echo $! > "$dir/dbus-daemon.pid"
wait_for dbus-daemon test -s "$dir/dbus.address"   # dbus-daemon prints its address once it listens
"${run[@]}" pipewire </dev/null >"$dir/pipewire.log" 2>&1 &
echo $! > "$dir/pipewire.pid"
wait_for pipewire "${run[@]}" pw-cli info 0
: > "$dir/wireplumber.log"
start_wireplumber
"${run[@]}" pipewire-pulse -c "$dir/pipewire-pulse.conf" </dev/null >"$dir/pipewire-pulse.log" 2>&1 &
echo $! > "$dir/pipewire-pulse.pid"
pactl() { PULSE_SERVER="unix:$socket" XDG_RUNTIME_DIR="$dir/run" PULSE_COOKIE="$dir/cookie" command pactl "$@"; }
has_sink() { pactl list sinks short | cut -f2 | grep -x "$sink"; }   # no -q: no SIGPIPE for pipefail
# The default is metadata that wireplumber creates and resolves, so repeat until it reads back.
make_default() { pactl set-default-sink "$sink" && [ "$(pactl get-default-sink)" = "$sink" ]; }
wait_for pipewire-pulse has_sink
wait_for wireplumber make_default
for attempt in 1 2 3 4; do
  metadata_notifies && break
  [ "$attempt" = 4 ] && fail wireplumber
  echo "pipewire-start: the default metadata does not notify its listeners; starting WirePlumber again" >>"$dir/wireplumber.log"
  "$here/stop-pid.sh" "$(cat "$dir/wireplumber.pid")"
  start_wireplumber
  wait_for wireplumber make_default
done
echo "unix:$socket"
