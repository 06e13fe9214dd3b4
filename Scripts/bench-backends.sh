#!/usr/bin/env bash
# CPU of the whole chain with each backend, on a private PipeWire (pipewire, wireplumber and
# pipewire-pulse, Scripts/pipewire-start.sh) whose null sink plays the demo track through paplay,
# as a user's player would: `decibar levels --rate 60` and `levels --mode spectrum --bands 64`,
# once with audio.backend = pipewire (PipeWire's own protocol) and once with pulse (libpulse
# through pipewire-pulse), one window after another; then cava 0.7.4 (64 bars, 60 fps, through
# pipewire-pulse) on the same monitor in a window of its own.
#
# Each window sums the CPU of decibar (or cava), pipewire, pipewire-pulse and wireplumber: the
# change of their threads' schedstat over the window, as % of one core. A window with the player
# alone comes first, for what the server costs anyway.
#
# Usage: bench-backends.sh [DECIBAR_BINARY] [WINDOW_SECONDS]   (defaults: .build/release, 30 s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build/release/decibar}
window=${2:-30}
for tool in pipewire wireplumber pipewire-pulse paplay cava python3; do
  command -v "$tool" >/dev/null || { echo "bench-backends: $tool not found (Scripts/install-deps.sh --bench)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-backends: no decibar binary at $decibar" >&2; exit 1; }

# rig.sh for rig_cava_config (it declares dir and pids, set here after).
. "$here/rig.sh"
dir=$(mktemp -d /tmp/decibar-bb.XXXXXX)
pids=()
cleanup() {
  local status=$?
  # What the clients said, when the bench stopped early.
  [ "$status" -eq 0 ] || for log in "$dir"/*.err "$dir"/pw/*.log; do [ -s "$log" ] && { echo "--- $log"; cat "$log"; }; done >&2
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  "$here/pipewire-stop.sh" "$dir/pw" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p "$dir/pw"
server=$("$here/pipewire-start.sh" "$dir/pw" viz)
export PULSE_SERVER=$server XDG_RUNTIME_DIR=$dir/pw/run
unset PIPEWIRE_REMOTE DISPLAY WAYLAND_DISPLAY

"$here/demo-signal.sh" "$dir/demo.wav"
(while true; do paplay --device=viz "$dir/demo.wav"; done) </dev/null >/dev/null 2>&1 &
pids+=("$!")

rig_cava_config "$dir/cava.conf"

server_pids="$(cat "$dir/pw/pipewire.pid") $(cat "$dir/pw/pipewire-pulse.pid") $(cat "$dir/pw/wireplumber.pid")"
cpu_ns() {
  [ -d "/proc/$1/task" ] && [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ] \
    || { echo "bench-backends: process $1 is gone" >&2; return 1; }
  cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{sum += $1} END {printf "%.0f", sum}'
}
now() { python3 -c 'import time; print(time.clock_gettime(time.CLOCK_MONOTONIC))'; }

# measure LABEL [PID]: the CPU of PID (if any) and of the server over one window; prints a row
# and sets client_pct and total_pct.
measure() {
  local label=$1 client=${2:-} t0 t1 pid
  local -a start=() end=()
  for pid in $client $server_pids; do start+=("$(cpu_ns "$pid")"); done
  t0=$(now)
  sleep "$window"
  for pid in $client $server_pids; do end+=("$(cpu_ns "$pid")"); done
  t1=$(now)
  read -r client_pct total_pct row < <(python3 - "$t0" "$t1" "${#start[@]}" "${start[@]}" "${end[@]}" "$([ -n "$client" ] && echo 1 || echo 0)" <<'PY'
import sys
t0, t1, n = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
start = [int(x) for x in sys.argv[4:4 + n]]
end = [int(x) for x in sys.argv[4 + n:4 + 2 * n]]
has_client = sys.argv[4 + 2 * n] == "1"
pct = [100 * (e - s) / 1e9 / (t1 - t0) for s, e in zip(start, end)]
names = (["client"] if has_client else []) + ["pipewire", "pipewire-pulse", "wireplumber"]
client = pct[0] if has_client else 0
print(f"{client:.3f} {sum(pct):.3f} " + "  ".join(f"{name} {value:.2f}" for name, value in zip(names, pct)))
PY
)
  printf '  %-44s total %6.2f %%   (%s)\n' "$label" "$total_pct" "$row"
}

sleep 2
echo "CPU over ${window} s windows, demo track looping into the null sink through paplay (% of one core, schedstat):"
measure "player alone"
declare -A totals clients
for mode in levels spectrum; do
  for backend in pipewire pulse; do
    if [ "$mode" = levels ]; then arguments=(levels --rate 60); else arguments=(levels --mode spectrum --bands 64 --rate 60); fi
    "$decibar" "${arguments[@]}" --backend "$backend" </dev/null >/dev/null 2>"$dir/$mode-$backend.err" &
    pid=$!
    pids+=("$pid")
    sleep 2
    [ -e "/proc/$pid/stat" ] || { echo "bench-backends: decibar $mode --backend $backend exited: $(cat "$dir/$mode-$backend.err")" >&2; exit 1; }
    measure "decibar ${arguments[*]} --backend $backend" "$pid"
    totals[$mode-$backend]=$total_pct
    clients[$mode-$backend]=$client_pct
    kill "$pid"; wait "$pid" 2>/dev/null || true
    grep -q "listening to" "$dir/$mode-$backend.err" || { echo "bench-backends: decibar never listened: $(cat "$dir/$mode-$backend.err")" >&2; exit 1; }
  done
done
cava -p "$dir/cava.conf" </dev/null >/dev/null 2>"$dir/cava.err" &
cava_pid=$!
pids+=("$cava_pid")
sleep 2
measure "cava 0.7.4 (64 bars, 60 fps, pulse input)" "$cava_pid"
cava_pct=$client_pct
python3 - "${totals[levels-pipewire]}" "${totals[levels-pulse]}" "${totals[spectrum-pipewire]}" "${totals[spectrum-pulse]}" \
  "${clients[levels-pipewire]}" "${clients[spectrum-pipewire]}" "$cava_pct" <<'PY'
import sys
lp, lq, sp, sq, dl, ds, cava = map(float, sys.argv[1:])
print(f"  chain with pipewire / with pulse: levels {lp / lq:.2f}, spectrum {sp / sq:.2f}   (goal <= 0.6)")
print(f"  decibar (pipewire) / cava:        levels {dl / cava:.2f}, spectrum {ds / cava:.2f}   (goal <= 0.3)")
PY
