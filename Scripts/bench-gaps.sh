#!/usr/bin/env bash
# Gaps heard while the machine is busy (bench-gaps.py says how they are counted): `play` of a
# continuous tone at rate 1, rate 1.5 and pitch +300 cents, and the daemon's player through
# `ctl open`, each under LOOPS busy loops at normal priority, beside `paplay` of the same file under
# the same load, in one private PulseAudio + Xvfb.
# Usage: bench-gaps.sh [DECIBAR_BINARY] [SECONDS] [LOOPS] [CASE ...]   (default: the release build
# in .build, 60 s, 6 loops, every case)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build/release/decibar}
seconds=${2:-60}
loops=${3:-6}
shift $(( $# < 3 ? $# : 3 ))
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(paplay play play:--rate=1.5 play:--pitch=300 daemon daemon:rate=1.5 daemon:pitch=300)
for tool in pulseaudio parec paplay Xvfb python3; do
  command -v "$tool" >/dev/null || { echo "bench-gaps: $tool not found (run Scripts/install-deps.sh)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-gaps: no decibar binary at $decibar (make release)" >&2; exit 1; }
. "$here/rig.sh"
rig_start dbg
mkdir -p "$dir/gaps"
DECIBAR_GAPS_FOLDER="$dir/gaps" python3 "$here/bench-gaps.py" "$decibar" "$seconds" "$loops" "${cases[@]}"
