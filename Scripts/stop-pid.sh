#!/usr/bin/env bash
# Stops a process by PID and waits until it is gone. A zombie (state Z) counts as gone: orphans
# here may be reaped late.
pid=${1:?usage: stop-pid.sh PID}
gone() { [ ! -e "/proc/$pid/stat" ] || [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = Z ]; }
gone && exit 0
kill "$pid" 2>/dev/null || true
for _ in $(seq 1 100); do gone && exit 0; sleep 0.02; done
kill -9 "$pid" 2>/dev/null || true
for _ in $(seq 1 50); do gone && exit 0; sleep 0.02; done
echo "stop-pid: process $pid did not stop" >&2
exit 1
