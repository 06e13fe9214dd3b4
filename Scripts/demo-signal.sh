#!/usr/bin/env bash
# Writes a 32-second stereo demo track (a beat, a bass line, chords and hi-hats) to PATH with ffmpeg,
# so a machine without music still shows something alive. Usage: demo-signal.sh PATH
set -euo pipefail
out=${1:?usage: demo-signal.sh PATH}
# 120 bpm: a beat every 0.5 s. Each voice decays within its step so the bars breathe.
kick='0.55*sin(2*PI*(45+90*exp(-25*mod(t,0.5)))*t)*exp(-7*mod(t,0.5))'
bass='0.22*sin(2*PI*(55*pow(2,floor(mod(t/2,4))*2/12))*t)*exp(-3*mod(t,0.25))'
chord='0.07*(sin(2*PI*220*t)+sin(2*PI*277.2*t)+sin(2*PI*329.6*t))*(0.55+0.45*sin(2*PI*t/8))'
hat='0.12*(random(0)-0.5)*exp(-40*mod(t+0.25,0.5))'
# Commas inside a filter's options must be escaped for the filtergraph parser.
esc() { printf '%s' "$1" | sed 's/,/\\,/g'; }
kick=$(esc "$kick"); bass=$(esc "$bass"); chord=$(esc "$chord"); hat=$(esc "$hat")
ffmpeg -v error -nostdin -y -f lavfi \
  -i "aevalsrc=${kick}+${bass}+${chord}+${hat}|${kick}+${bass}+0.9*${chord}+${hat}:s=48000:d=32" \
  -c:a pcm_f32le "$out"
