#!/usr/bin/env bash
# Stops the PipeWire server started by pipewire-start.sh DIR, by PID: the clients first, then the
# daemon and the bus. Safe to call twice, and after a kill -9.
dir=${1:?usage: pipewire-stop.sh DIR}
status=0
for name in pipewire-pulse wireplumber pipewire dbus-daemon; do
  pid=$(cat "$dir/$name.pid" 2>/dev/null) || continue
  # Only if the PID is still that program: once it is dead, the PID may be another process's.
  if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ] && ! "$(dirname "$0")/stop-pid.sh" "$pid"; then
    status=1
    continue
  fi
  rm -f "$dir/$name.pid"
done
exit $status
