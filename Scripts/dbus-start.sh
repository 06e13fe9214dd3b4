#!/usr/bin/env bash
# Starts a private session bus (dbus-daemon with the standard session policy) in DIR and waits
# until it answers. Prints the DBUS_SESSION_BUS_ADDRESS value. Stop it with dbus-stop.sh DIR.
set -euo pipefail
dir=${1:?usage: dbus-start.sh DIR}
mkdir -p "$dir"
socket="$dir/bus"
if [ ${#socket} -ge 100 ]; then echo "dbus-start: socket path too long: $socket" >&2; exit 1; fi
rm -f "$socket"
dbus-daemon --config-file=/usr/share/dbus-1/session.conf --address="unix:path=$socket" --nofork --nopidfile \
  </dev/null >/dev/null 2>"$dir/dbus.log" &
echo $! > "$dir/dbus.pid"
for _ in $(seq 1 200); do
  if DBUS_SESSION_BUS_ADDRESS="unix:path=$socket" busctl --user list >/dev/null 2>&1; then
    echo "unix:path=$socket"
    exit 0
  fi
  if ! kill -0 "$(cat "$dir/dbus.pid")" 2>/dev/null; then break; fi
  sleep 0.025
done
echo "dbus-start: the session bus did not start; see $dir/dbus.log" >&2
exit 1
