#!/usr/bin/env bash
# Writes a synthetic "song" to PATH (numpy, then ffmpeg): drums, bass, chords and a lead in sections (a quiet
# intro, verse, a loud chorus, a breakdown, the chorus again), mastered to an integrated loudness.
# STYLE picks tempo, key and timbre (0, 1 or 2) so material is not one tune the bars were fitted to.
# Usage: make-music.sh PATH STYLE LUFS   (for example: make-music.sh song.wav 1 -14)
set -euo pipefail
out=${1:?usage: make-music.sh PATH STYLE LUFS}
style=${2:?usage: make-music.sh PATH STYLE LUFS}
lufs=${3:?usage: make-music.sh PATH STYLE LUFS}
# Styles: 0 is 120 bpm in A; 1 is 150 bpm in G, brighter; 2 is 90 bpm in E, darker.
case "$style" in
  0|1|2) ;;
  *) echo "make-music: STYLE is 0, 1 or 2" >&2; exit 2 ;;
esac
work=$(mktemp -d /tmp/decibar-music.XXXXXX)
trap 'rm -rf "$work"' EXIT
# The mix, sample by sample in numpy (the right channel is the left a little quieter), then a
# compressor. Noise is seeded: the same STYLE makes the same mix.
python3 - "$style" > "$work/mix.f32" <<'PY'
import sys
import numpy as np
beat, root, bright = {"0": (0.5, 55, 1.0), "1": (0.4, 49, 1.6), "2": (0.6667, 41.2, 0.6)}[sys.argv[1]]
rate, seconds = 48000, 64
rng = np.random.default_rng(int(sys.argv[1]))
t = np.arange(rate * seconds) / rate
def between(a, b):
    return ((t >= a) & (t <= b)).astype(float)
drums = between(8, 40) + between(48, 64)
chorus = between(24, 40) + between(48, 64)
section = 0.25 + 0.35 * between(8, 24) + 0.75 * chorus + 0.15 * between(40, 48)
in_beat = np.mod(t, beat)
kick = 0.9 * np.sin(2 * np.pi * (42 + 100 * np.exp(-30 * in_beat)) * t) * np.exp(-8 * in_beat) * drums
snare = 0.45 * (rng.random(t.size) - 0.5) * np.exp(-18 * np.mod(t + beat, 2 * beat)) * np.mod(np.floor(t / beat), 2) * drums
hat = 0.12 * bright * (rng.random(t.size) - 0.5) * np.exp(-60 * np.mod(t, beat / 2)) * drums
step = np.floor(np.mod(t / (4 * beat), 4))
bass_hz = root * 2 ** ((step * 5 - 12 * np.floor(step / 2)) / 12)
bass = 0.35 * np.sin(2 * np.pi * bass_hz * t) * np.exp(-2.5 * np.mod(t, beat / 2)) * drums
pad = 0.10 * sum(np.sin(2 * np.pi * k * bass_hz * t) for k in (4, 5, 6)) * (0.6 + 0.4 * np.sin(2 * np.pi * t / 6))
lead_hz = 8 * bass_hz * 2 ** (np.floor(np.mod(t / beat * 3, 5)) * 2 / 12)
lead = 0.16 * bright * np.sin(2 * np.pi * lead_hz * t) * np.exp(-4 * in_beat) * chorus
mix = (kick + snare + hat + bass + pad + lead) * section
np.stack([mix, 0.95 * mix], axis=1).astype("<f4").tofile(sys.stdout.buffer)
PY
ffmpeg -v error -nostdin -y -f f32le -ar 48000 -ac 2 -i "$work/mix.f32" \
  -af "acompressor=threshold=0.1:ratio=3:attack=5:release=120" -c:a pcm_f32le "$work/raw.wav"
# Master: a gain, then a limiter that keeps peaks under 0 dBFS. The limiter takes some loudness
# away, so the gain grows by what is missing, up to three times.
measure() { ffmpeg -nostdin -i "$1" -af ebur128 -f null - 2>&1 | awk '/Integrated loudness:/ { getline; print $2 }'; }
gain=$(awk -v t="$lufs" -v n="$(measure "$work/raw.wav")" 'BEGIN { printf "%.2f", t - n }')
for _ in 1 2 3; do
  ffmpeg -v error -nostdin -y -i "$work/raw.wav" -af "volume=${gain}dB,alimiter=limit=0.97:attack=2:release=60:level=disabled" \
    -c:a pcm_f32le "$work/out.wav"
  got=$(measure "$work/out.wav")
  awk -v t="$lufs" -v g="$got" 'BEGIN { exit !(g - t < 0.3 && t - g < 0.3) }' && break
  gain=$(awk -v t="$lufs" -v g="$got" -v a="$gain" 'BEGIN { printf "%.2f", a + t - g }')
done
mv "$work/out.wav" "$out"
