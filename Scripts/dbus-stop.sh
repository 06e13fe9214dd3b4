#!/usr/bin/env bash
# Stops the session bus started by dbus-start.sh DIR, by its PID.
dir=${1:?usage: dbus-stop.sh DIR}
[ -f "$dir/dbus.pid" ] || exit 0
"$(dirname "$0")/stop-pid.sh" "$(cat "$dir/dbus.pid")"
rm -f "$dir/dbus.pid"
