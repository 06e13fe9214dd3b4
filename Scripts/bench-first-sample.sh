#!/usr/bin/env bash
# Whether `decibar levels --app marker` hears a new stream's first 256 frames, with each backend,
# on a private PipeWire (Scripts/pipewire-start.sh): an app whose file is a 256-frame burst at
# frame 0 then 0.2 s of silence is started 20 times by paplay, paplay --latency-msec=5, pw-play
# and pw-play --latency=256. A burst counts as seen when a levels line reads its peak (-6.02 dB).
#
# Usage: bench-first-sample.sh [DECIBAR_BINARY] [STARTS]   (defaults: .build/release, 20)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build/release/decibar}
starts=${2:-20}
for tool in pipewire wireplumber pipewire-pulse paplay pw-play python3; do
  command -v "$tool" >/dev/null || { echo "bench-first-sample: $tool not found (Scripts/install-deps.sh --bench)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-first-sample: no decibar binary at $decibar" >&2; exit 1; }
dir=$(mktemp -d /tmp/decibar-fs.XXXXXX)
levels_pid=
cleanup() {
  [ -n "$levels_pid" ] && { kill "$levels_pid" 2>/dev/null || true; wait "$levels_pid" 2>/dev/null || true; }
  "$here/pipewire-stop.sh" "$dir/pw" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p "$dir/pw"
server=$("$here/pipewire-start.sh" "$dir/pw" viz)
export PULSE_SERVER=$server XDG_RUNTIME_DIR=$dir/pw/run PULSE_COOKIE=$dir/pw/cookie
unset PIPEWIRE_REMOTE DISPLAY WAYLAND_DISPLAY
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

printf '%-26s %10s %10s\n' "starts of $starts" pipewire pulse
for starter in paplay "paplay --latency-msec=5" pw-play "pw-play --latency=256"; do
  row=()
  for backend in pipewire pulse; do
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
    row+=("$(seen "$dir/levels.out")")
  done
  printf '%-26s %10s %10s\n' "$starter" "${row[0]}" "${row[1]}"
done
