#!/usr/bin/env bash
# Start-up of the commands a hotkey or a status bar runs, beside `playerctl --version` in the same
# run: `decibar --version` and `decibar ctl status` (against a daemon with its window hidden, in a
# runtime folder of its own). Runs alternate (decibar, playerctl, decibar, ...) so that a busy
# moment of the machine falls on both; each figure is the median of RUNS runs.
#
# For each command: wall time (fork to exit, measured around the process), peak resident memory
# (GNU time's figure for that one run) and the shared libraries the loader brought in (LD_DEBUG=files,
# counting those opened on first use too).
#
# BEFORE=PATH adds an earlier decibar's --version and ctl status (against the same daemon) to the
# same alternation, for the figures before a change.
#
# Usage: [BEFORE=PATH] bench-startup.sh [DECIBAR_BINARY] [RUNS]   (defaults: .build/release/decibar, from make release; 15)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
decibar=${1:-$root/.build/release/decibar}
runs=${2:-15}
[ -x "$decibar" ] || { echo "bench-startup: no binary at $decibar (make release builds it)" >&2; exit 2; }
command -v playerctl > /dev/null || { echo "bench-startup: playerctl is missing (apt-get install playerctl)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-startup: GNU time is missing (apt-get install time)" >&2; exit 2; }

runtime=$(mktemp -d /tmp/decibar-startup.XXXXXX)
chmod 700 "$runtime"
daemon_pid=
cleanup() { [ -n "$daemon_pid" ] && kill "$daemon_pid" 2> /dev/null; wait 2> /dev/null; rm -rf "$runtime"; }
trap cleanup EXIT
# The daemon needs no display or sound server while its window is hidden and nobody subscribes.
env -u DISPLAY -u WAYLAND_DISPLAY XDG_RUNTIME_DIR="$runtime" XDG_CONFIG_HOME="$runtime/config" \
  "$decibar" daemon > "$runtime/daemon.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 100); do [ -S "$runtime/decibar/control.sock" ] && break; sleep 0.05; done
[ -S "$runtime/decibar/control.sock" ] || { echo "bench-startup: the daemon did not start: $(cat "$runtime/daemon.log")" >&2; exit 1; }

XDG_RUNTIME_DIR="$runtime" python3 - "$decibar" "$runs" "${BEFORE:-}" <<'PY'
import os, statistics, subprocess, sys, time
decibar, runs, before = sys.argv[1], int(sys.argv[2]), sys.argv[3]
commands = {
    "decibar --version": [decibar, "--version"],
    "decibar ctl status": [decibar, "ctl", "status"],
    "playerctl --version": ["playerctl", "--version"],
}
if before:
    commands["before: --version"] = [before, "--version"]
    commands["before: ctl status"] = [before, "ctl", "status"]

def one(argv):
    """Wall seconds of one run, from spawn to exit."""
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, dict(os.environ), file_actions=[(os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
                                                                           (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)])
    _, status = os.waitpid(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench-startup: {' '.join(argv)} failed (status {os.waitstatus_to_exitcode(status)})")
    return wall

def resident(argv):
    """Peak resident KiB of one run. GNU time forks a small process of its own, so the figure is
    the command's alone (a child spawned from Python would first count Python's pages)."""
    run = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(run.stderr.strip().splitlines()[-1])

def libraries(argv):
    """Shared objects the loader opened for one run, those opened on first use included."""
    run = subprocess.run(argv, env=dict(os.environ, LD_DEBUG="files"), capture_output=True, text=True)
    return len({line.split("file=")[1].split()[0] for line in run.stderr.splitlines() if "file=" in line and "[0];  generating link map" in line})

for argv in commands.values():
    one(argv)  # page cache warm
walls = {name: [] for name in commands}
rss = {name: [] for name in commands}
for _ in range(runs):
    for name, argv in commands.items():
        walls[name].append(one(argv))
        rss[name].append(resident(argv))
reference = statistics.median(walls["playerctl --version"])
print(f"startup: median of {runs} alternating runs; wall time, peak resident memory, shared libraries loaded")
for name, argv in commands.items():
    wall = statistics.median(walls[name])
    print(f"  {name:22s} {wall * 1000:6.1f} ms ({wall / reference:4.2f}x playerctl)  {statistics.median(rss[name]) / 1024:5.1f} MiB  {libraries(argv):3d} libraries")
print("  goal: decibar ctl and --version within 1.5x playerctl's wall time, at most 12 MiB")
PY
