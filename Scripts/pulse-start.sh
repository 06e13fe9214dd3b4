#!/usr/bin/env bash
# Starts a private PulseAudio server with a float32 null sink in DIR and waits until it answers.
# Prints the PULSE_SERVER value. Usage: pulse-start.sh DIR [SINK_NAME]
# Stop it with pulse-stop.sh DIR.
set -euo pipefail
dir=${1:?usage: pulse-start.sh DIR [SINK_NAME]}
sink=${2:-viz}
mkdir -p "$dir/run" "$dir/home" "$dir/state"
chmod 700 "$dir/run"
# Unix socket paths must stay under 108 bytes.
socket="$dir/pulse.sock"
if [ ${#socket} -ge 100 ]; then echo "pulse-start: socket path too long: $socket" >&2; exit 1; fi
# -n: no default.pa (no udev, no suspend-on-idle, no state files).
# norewinds=1: otherwise the monitor loses the start of each new stream; float32le: exact samples.
# Its runtime and state folders in DIR: elsewhere it makes a pulse-XXXXXX folder in TMPDIR that
# nothing removes. Not on a session bus: PulseAudio takes the name org.PulseAudio1 there, and a
# second server (tests run several at once) would refuse to start.
HOME="$dir/home" XDG_RUNTIME_DIR="$dir/run" PULSE_RUNTIME_PATH="$dir/run" PULSE_STATE_PATH="$dir/state" \
PULSE_COOKIE="$dir/cookie" \
env -u DBUS_SESSION_BUS_ADDRESS pulseaudio -n --daemonize=no --system=false --exit-idle-time=-1 --disallow-exit --use-pid-file=no \
  --log-target="file:$dir/pulse.log" --log-level=notice \
  -L "module-native-protocol-unix socket=$socket auth-anonymous=1" \
  -L "module-null-sink sink_name=$sink rate=48000 channels=2 format=float32le norewinds=1" \
  </dev/null >/dev/null 2>&1 &
echo $! > "$dir/pulse.pid"
for _ in $(seq 1 200); do
  if PULSE_SERVER="unix:$socket" PULSE_COOKIE="$dir/cookie" pactl info >/dev/null 2>&1; then
    echo "unix:$socket"
    exit 0
  fi
  if ! kill -0 "$(cat "$dir/pulse.pid")" 2>/dev/null; then break; fi
  sleep 0.025
done
echo "pulse-start: PulseAudio did not start; see $dir/pulse.log" >&2
exit 1
