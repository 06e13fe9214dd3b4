#!/usr/bin/env bash
# Runs a command inside a private test environment: its own PulseAudio (null sink "viz"), Xvfb and
# session bus. All are stopped by PID when the command ends, whether it passed, failed or was interrupted.
# Usage: with-test-env.sh COMMAND [ARGS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
env_dir=$(mktemp -d /tmp/decibar-env.XXXXXX)
cleanup() {
  "$here/pulse-stop.sh" "$env_dir/pa" || true
  "$here/xvfb-stop.sh" "$env_dir/x" || true
  "$here/dbus-stop.sh" "$env_dir/bus" || true
  rm -rf "$env_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PULSE_SERVER=$("$here/pulse-start.sh" "$env_dir/pa")
DISPLAY=$("$here/xvfb-start.sh" "$env_dir/x")
# Players publish themselves on it (MPRIS), as on a desktop.
DBUS_SESSION_BUS_ADDRESS=$("$here/dbus-start.sh" "$env_dir/bus")
export PULSE_SERVER DISPLAY DBUS_SESSION_BUS_ADDRESS
export PULSE_COOKIE="$env_dir/pa/cookie"
# Keep clients out of the real home and runtime directories.
export XDG_RUNTIME_DIR="$env_dir/pa/run" XDG_CONFIG_HOME="$env_dir/config"
export DECIBAR_TEST_ENV=1
echo "test environment: PULSE_SERVER=$PULSE_SERVER DISPLAY=$DISPLAY DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS"
"$@"
