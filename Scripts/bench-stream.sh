#!/usr/bin/env bash
# Streaming benchmarks on a private PulseAudio + Xvfb + nginx on loopback: time to first audio
# (from disk, over HTTP at full speed and throttled, against ffmpeg on the same addresses), and CPU
# and memory while playing a 60-minute FLAC from disk against over HTTP. See bench-stream.py.
#
# Usage: bench-stream.sh [DECIBAR_BINARY] [SECONDS]   (default: the release build, 30 s per run)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
seconds=${2:-30}

command -v nginx >/dev/null || PATH=$PATH:/usr/sbin
for tool in pulseaudio parec Xvfb nginx ffmpeg python3; do
  command -v "$tool" >/dev/null || { echo "bench-stream: $tool not found (run Scripts/install-deps.sh --bench)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-stream: no decibar binary at $decibar (swift build -c release --product decibar --scratch-path .build-release)" >&2; exit 1; }

fixtures="$root/.build-release/bench-fixtures"
long=$("$here/bench-hour.sh")
# Its first minute: the same bit rate, so one throttle makes this a 20 s download and the hour
# three times faster than it plays.
short="$fixtures/minute.flac"
[ -s "$short" ] || { ffmpeg -v error -nostdin -y -i "$long" -t 60 "$short.tmp.flac" && mv "$short.tmp.flac" "$short"; }

. "$here/rig.sh"
rig_start dbs
web="$dir/web"
mkdir -p "$web/www"
ln -s "$long" "$web/www/hour.flac"
ln -s "$short" "$web/www/minute.flac"
port=$(NGINX_RATE=$(( $(stat -c %s "$short") / 20 )) "$here/nginx-start.sh" "$web")
trap '"$here/nginx-stop.sh" "$web" || true; rig_stop' EXIT
python3 "$here/bench-stream.py" "$decibar" "$short" "$long" "http://127.0.0.1:$port/" "$dir" "$seconds"
