#!/usr/bin/env bash
# Whether `decibar levels --app marker` hears a new stream's first 256 frames: an app whose file is
# a 256-frame burst at frame 0 then 0.2 s of silence is started STARTS times by each starter. A
# burst counts as seen when a levels line reads its peak (-6.02 dB).
#   - On a private PipeWire (Scripts/pipewire-start.sh): paplay, paplay --latency-msec=5, pw-play
#     and pw-play --latency=256, heard through PipeWire's own protocol and through libpulse
#     (pipewire-pulse).
#   - On a private PulseAudio (Scripts/pulse-start.sh): paplay and paplay --latency-msec=5, heard
#     through libpulse.
# RUNS rounds (default 3), each cell listing its counts. LOAD=N keeps N busy loops running at
# the tap's priority throughout (a machine that is busy when a track starts).
#
# Usage: [RUNS=3] [LOAD=0] bench-first-sample.sh [DECIBAR_BINARY] [STARTS]   (defaults: .build/release, 20)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build/release/decibar}
starts=${2:-20}
runs=${RUNS:-3}
load=${LOAD:-0}
for tool in pipewire wireplumber pipewire-pulse pulseaudio paplay pw-play python3; do
  command -v "$tool" >/dev/null || { echo "bench-first-sample: $tool not found (Scripts/install-deps.sh --bench)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-first-sample: no decibar binary at $decibar" >&2; exit 1; }
dir=$(mktemp -d /tmp/decibar-fs.XXXXXX)
levels_pid= busy=()
cleanup() {
  [ -n "$levels_pid" ] && { kill "$levels_pid" 2>/dev/null || true; wait "$levels_pid" 2>/dev/null || true; }
  for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done
  "$here/pipewire-stop.sh" "$dir/pw" >/dev/null 2>&1 || true
  "$here/pulse-stop.sh" "$dir/pa" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
python3 - "$dir/burst.wav" <<'PY'
import struct, sys, wave
with wave.open(sys.argv[1], "wb") as out:
    out.setnchannels(2); out.setsampwidth(2); out.setframerate(48000)
    out.writeframes(b"".join(struct.pack("<hh", *( (16384, 16384) if i < 256 else (0, 0))) for i in range(256 + 9600)))
PY

# seen FILE: the bursts in a levels output, as runs of lines whose peak is the burst's.
seen() {
  python3 - "$1" <<'PY'
import json, sys
count, inside = 0, False
for line in open(sys.argv[1]):
    try: peak = max(json.loads(line)["peak_db"])
    except Exception: continue
    loud = peak > -6.5
    if loud and not inside: count += 1
    inside = loud or (inside and peak > -100)
print(count)
PY
}

# count CELL STARTER BACKEND: starts STARTS bursts with STARTER while levels listens; adds those
# seen to the table's CELL.
count() {
  local cell=$1 starter=$2 backend=$3
  "$decibar" levels --app marker --backend "$backend" --rate 200 >"$dir/levels.out" 2>"$dir/levels.err" &
  levels_pid=$!
  for _ in $(seq 1 50); do grep -q "waiting for marker" "$dir/levels.err" && break; sleep 0.1; done
  for _ in $(seq 1 "$starts"); do
    case $starter in
      paplay*) $starter --property=application.name=marker "$dir/burst.wav" ;;
      pw-play*) $starter --properties='{ application.name = marker }' "$dir/burst.wav" ;;
    esac
    sleep 0.1
  done
  sleep 1   # the last burst's line written before levels stops
  kill "$levels_pid"; wait "$levels_pid" 2>/dev/null || true; levels_pid=
  cells[$cell]+="$(seen "$dir/levels.out") "
}

unset PIPEWIRE_REMOTE DISPLAY WAYLAND_DISPLAY
for _ in $(seq 1 "$load"); do (while :; do :; done) & busy+=($!); done
declare -A cells
for run in $(seq 1 "$runs"); do
  mkdir -p "$dir/pw"
  server=$("$here/pipewire-start.sh" "$dir/pw" viz)
  export PULSE_SERVER=$server XDG_RUNTIME_DIR=$dir/pw/run PULSE_COOKIE=$dir/pw/cookie
  for starter in paplay "paplay --latency-msec=5" pw-play "pw-play --latency=256"; do
    for backend in pipewire pulse; do count "$starter/$backend" "$starter" "$backend"; done
  done
  "$here/pipewire-stop.sh" "$dir/pw" >/dev/null 2>&1
  mkdir -p "$dir/pa"
  server=$("$here/pulse-start.sh" "$dir/pa" viz)
  export PULSE_SERVER=$server XDG_RUNTIME_DIR=$dir/pa/run PULSE_COOKIE=$dir/pa/cookie
  for starter in paplay "paplay --latency-msec=5"; do count "$starter/pulseaudio" "$starter" pulse; done
  "$here/pulse-stop.sh" "$dir/pa" >/dev/null 2>&1
done

echo "first bursts seen of $starts starts, $runs runs, $load busy loops beside"
printf '%-26s %-22s %-22s %-22s\n' starter "PipeWire (native)" "pipewire-pulse" "PulseAudio (libpulse)"
for starter in paplay "paplay --latency-msec=5" pw-play "pw-play --latency=256"; do
  printf '%-26s %-22s %-22s %-22s\n' "$starter" "${cells[$starter/pipewire]}" "${cells[$starter/pulse]}" "${cells[$starter/pulseaudio]:--}"
done
