#!/usr/bin/env bash
# Writes a synthetic "song" to PATH with ffmpeg: drums, bass, chords and a lead in sections (a quiet
# intro, verse, a loud chorus, a breakdown, the chorus again), mastered to an integrated loudness.
# STYLE picks tempo, key and timbre (0, 1 or 2) so material is not one tune the bars were fitted to.
# Usage: make-music.sh PATH STYLE LUFS   (for example: make-music.sh song.wav 1 -14)
set -euo pipefail
out=${1:?usage: make-music.sh PATH STYLE LUFS}
style=${2:?usage: make-music.sh PATH STYLE LUFS}
lufs=${3:?usage: make-music.sh PATH STYLE LUFS}
case "$style" in
  0) beat=0.5;   root=55;   bright=1.0 ;;   # 120 bpm, A
  1) beat=0.4;   root=49;   bright=1.6 ;;   # 150 bpm, G, brighter
  2) beat=0.6667; root=41.2; bright=0.6 ;;  # 90 bpm, E, darker
  *) echo "make-music: STYLE is 0, 1 or 2" >&2; exit 2 ;;
esac
b=$beat
# Section level over 64 s: intro 0-8 (pad), verse 8-24, chorus 24-40, breakdown 40-48, chorus 48-64.
drums="(between(t,8,40)+between(t,48,64))"
chorus="(between(t,24,40)+between(t,48,64))"
section="(0.25+0.35*between(t,8,24)+0.75*$chorus+0.15*between(t,40,48))"
kick="0.9*sin(2*PI*(42+100*exp(-30*mod(t,$b)))*t)*exp(-8*mod(t,$b))*$drums"
snare="0.45*(random(1)-0.5)*exp(-18*mod(t+$b,2*$b))*(mod(floor(t/$b),2))*$drums"
hat="0.12*$bright*(random(2)-0.5)*exp(-60*mod(t,$b/2))*$drums"
step="floor(mod(t/(4*$b),4))"
bassf="$root*pow(2,(($step)*5-12*floor($step/2))/12)"
bass="0.35*sin(2*PI*$bassf*t)*exp(-2.5*mod(t,$b/2))*(between(t,8,40)+between(t,48,64))"
pad="0.10*(sin(2*PI*4*$bassf*t)+sin(2*PI*5*$bassf*t)+sin(2*PI*6*$bassf*t))*(0.6+0.4*sin(2*PI*t/6))"
lead="0.16*$bright*sin(2*PI*8*$bassf*pow(2,floor(mod(t/$b*3,5))*2/12)*t)*exp(-4*mod(t,$b))*$chorus"
mix="($kick+$snare+$hat+$bass+$pad+$lead)*$section"
esc() { printf '%s' "$1" | sed 's/,/\\,/g'; }
mix=$(esc "$mix")
work=$(mktemp -d /tmp/decibar-music.XXXXXX)
trap 'rm -rf "$work"' EXIT
# The mix is evaluated once per sample (the right channel is the left a little quieter): the
# expression is the slow part.
ffmpeg -v error -nostdin -y -f lavfi -i "aevalsrc=$mix:s=48000:d=64,pan=stereo|c0=c0|c1=0.95*c0" \
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
