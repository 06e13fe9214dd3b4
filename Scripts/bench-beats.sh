#!/usr/bin/env bash
# Beats: what finding them costs, how well, and how soon, beside aubio (aubio-tools) in the same run.
#
# 1. Cost: `levels --mode beats --file` against `levels --file` (levels at 60 lines a second) on a
#    5-minute song, as CPU seconds per second of audio (% of a core in real time); aubiotrack on
#    the same file. Then live on a private PulseAudio playing the song: `levels --mode beats`
#    beside `levels --rate 60`, CPU over one window.
# 2. Quality: F-measure at +-70 ms from 5 s on (Scripts/beat-score.py) of Decibar and aubiotrack
#    on material with known beats (Scripts/make-beats.py), and on three tracks of Frozen Bubble's
#    music (frozen-bubble-data, GPL-2.0), where the two are scored against each other.
# 3. Latency live: 120 BPM clicks into the null sink; when each beat line arrives after the click
#    arrives on the monitor (Scripts/click-times.py).
#
# Usage: bench-beats.sh [DECIBAR_BINARY] [WINDOW_SECONDS]   (defaults: .build-release, 30 s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
window=${2:-30}
music=/usr/share/games/frozen-bubble/snd

for tool in pulseaudio pactl paplay parec aubiotrack python3; do
  command -v "$tool" >/dev/null || { echo "bench-beats: $tool not found (Scripts/install-deps.sh --bench)" >&2; exit 1; }
done
[ -x "$decibar" ] || { echo "bench-beats: no decibar binary at $decibar (make release)" >&2; exit 1; }
[ -f "$music/frozen-mainzik-1p.ogg" ] || { echo "bench-beats: no $music (apt-get install frozen-bubble-data)" >&2; exit 1; }

. "$here/rig.sh"
rig_start dbb --no-display
song=$music/frozen-mainzik-1p.ogg

# cpu_of COMMAND...: user+system seconds the command took.
cpu_of() { python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{usage.ru_utime + usage.ru_stime:.3f}")' "$@"; }
seconds=$(python3 -c "import subprocess; print(float(subprocess.run(['ffprobe', '-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', '$song'], capture_output=True, text=True).stdout))")

echo "== Cost on a file ($(basename "$song"), ${seconds%.*} s), CPU per second of audio"
best() { local label=$1; shift; local low=""; for _ in 1 2 3; do local c; c=$(cpu_of "$@"); low=$(python3 -c "print(min(float('$c'), float('${low:-1e9}')))"); done; echo "$low"; }
levels_cpu=$(best levels "$decibar" levels --file "$song" --rate 60)
beats_cpu=$(best beats "$decibar" levels --file "$song" --mode beats)
aubio_cpu=$(best aubio aubiotrack -i "$song")
python3 - "$levels_cpu" "$beats_cpu" "$aubio_cpu" "$seconds" <<'EOF'
import sys
levels, beats, aubio, seconds = map(float, sys.argv[1:])
for label, cpu in (("decibar levels --file (levels, 60/s)", levels), ("decibar levels --file --mode beats", beats),
                   ("aubiotrack -i", aubio)):
    print(f"{label:40s} {cpu:7.3f} s  {100 * cpu / seconds:6.3f} % of a core in real time")
print(f"{'beats: decoding aside':40s} {beats - levels:7.3f} s  {100 * (beats - levels) / seconds:6.3f} %   (goal: under 0.3 %)")
EOF

echo "== Cost live (${window} s of the song played into the null sink)"
(while true; do paplay --device=viz "$song"; done) </dev/null >/dev/null 2>&1 &
pids+=("$!")
"$decibar" levels --standalone --rate 60 </dev/null >/dev/null 2>/dev/null &
plain=$!
"$decibar" levels --standalone --mode beats </dev/null >"$dir/live-beats.jsonl" 2>/dev/null &
beats=$!
pids+=("$plain" "$beats")
sleep 4
p0=$(cpu_ns "$plain"); b0=$(cpu_ns "$beats"); t0=$(now)
sleep "$window"
p1=$(cpu_ns "$plain"); b1=$(cpu_ns "$beats"); t1=$(now)
python3 - "$p0" "$p1" "$b0" "$b1" "$t0" "$t1" <<'EOF'
import sys
p0, p1, b0, b1, t0, t1 = map(float, sys.argv[1:])
span = t1 - t0
plain, beats = 100 * (p1 - p0) / 1e9 / span, 100 * (b1 - b0) / 1e9 / span
print(f"{'decibar levels --rate 60 (50 ms blocks)':44s} {plain:6.2f} % of a core")
print(f"{'decibar levels --mode beats (10 ms blocks)':44s} {beats:6.2f} % of a core   difference {beats - plain:+.2f} %")
EOF
"$here/stop-pid.sh" "$plain"; "$here/stop-pid.sh" "$beats"
kill "${pids[0]}" 2>/dev/null || true; pkill -f "paplay --device=viz $song" 2>/dev/null || true

echo "== F-measure at +-70 ms from 5 s on (from 20 s for the change), the same files"
printf '%-14s %10s %8s   %s\n' file Decibar aubio "Decibar's median offset, last bpm"
while read -r name from arguments; do
  # shellcheck disable=SC2086
  "$here/make-beats.py" $arguments "$dir/m.wav"
  "$decibar" levels --mode beats --file "$dir/m.wav" >"$dir/m.decibar"
  aubiotrack -i "$dir/m.wav" >"$dir/m.aubio" 2>/dev/null
  ours=$("$here/beat-score.py" "$dir/m.wav.beats" "$dir/m.decibar" --from "$from")
  theirs=$("$here/beat-score.py" "$dir/m.wav.beats" "$dir/m.aubio" --from "$from")
  bpm=$(tail -1 "$dir/m.decibar" | python3 -c 'import json, sys; print(json.loads(sys.stdin.read())["bpm"])')
  printf '%-14s %10s %8s   %+.1f ms, %s\n' "$name" "${ours%% *}" "${theirs%% *}" "$(echo "$ours" | awk '{print $4}')" "$bpm"
done <<'EOF'
clicks_60 5 clicks 60
clicks_90 5 clicks 90
clicks_120 5 clicks 120
clicks_128 5 clicks 128
clicks_174 5 clicks 174
band_97 5 band 97
band_97_held 5 band 97 --bass held
120_to_140 20 clicks 120 --to 140 --at 15
EOF

echo "== Real music: Decibar and aubio against each other (F at +-70 ms from 10 s on; tempo: median beat interval)"
for track in frozen-mainzik-1p frozen-mainzik-2p introzik; do
  "$decibar" levels --mode beats --file "$music/$track.ogg" >"$dir/r.decibar"
  aubiotrack -i "$music/$track.ogg" >"$dir/r.aubio" 2>/dev/null
  python3 - "$dir/r.decibar" "$dir/r.aubio" "$track" "$here" <<'EOF'
import json, statistics, subprocess, sys
ours_path, theirs_path, track, here = sys.argv[1:]
ours = [json.loads(l)["t"] for l in open(ours_path) if '"beat"' in l]
theirs = [float(l.split()[0]) for l in open(theirs_path) if l.strip()]
tempo = lambda times: 60 / statistics.median(b - a for a, b in zip(times, times[1:]))
agreement = subprocess.run([f"{here}/beat-score.py", theirs_path, ours_path, "--from", "10"], capture_output=True, text=True).stdout.split()[0]
print(f"{track:18s} Decibar {len(ours):4d} beats {tempo(ours):6.1f} BPM   aubio {len(theirs):4d} beats {tempo(theirs):6.1f} BPM   F(Decibar, aubio) {agreement}")
EOF
done

echo "== Live latency: 120 BPM clicks into the null sink, levels --mode beats on its monitor"
"$here/make-beats.py" clicks 120 "$dir/clicks.wav" --seconds 30
"$here/click-times.py" viz.monitor >"$dir/clicks.times" &
listener=$!
python3 - "$decibar" "$dir/beats.times" <<'EOF' &
import subprocess, sys, time
# Each beat line with the CLOCK_MONOTONIC time it arrived.
levels = subprocess.Popen([sys.argv[1], "levels", "--standalone", "--mode", "beats"], stdout=subprocess.PIPE, text=True)
with open(sys.argv[2], "w") as out:
    for line in levels.stdout:
        if '"beat"' in line:
            out.write(f"{time.monotonic():.6f}\n")
            out.flush()
EOF
reader=$!
pids+=("$listener" "$reader")
sleep 1
paplay --device=viz "$dir/clicks.wav"
sleep 0.5
kill "$listener" "$reader" 2>/dev/null || true
pkill -f "levels --standalone --mode beats" 2>/dev/null || true
python3 - "$dir/clicks.times" "$dir/beats.times" <<'EOF'
import statistics, sys
clicks = [float(l) for l in open(sys.argv[1]) if l.strip()]
told = [float(l) for l in open(sys.argv[2]) if l.strip()]
start = clicks[0] + 5
late = sorted(min(told, key=lambda t: abs(t - c)) - c for c in clicks if c >= start and told)
late = [l for l in late if abs(l) <= 0.1]
q = lambda f: late[int(f * (len(late) - 1))] * 1000
print(f"{len(late)} clicks: min {q(0):.1f}, quartiles {q(.25):.1f} {q(.5):.1f} {q(.75):.1f}, max {q(1):.1f} ms  (goal: median within 30 ms)")
EOF
