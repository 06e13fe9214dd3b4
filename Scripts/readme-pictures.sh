#!/usr/bin/env bash
# Renders the README's pictures and its GIF with `decibar render` from the demo track the repo
# generates (Scripts/demo-signal.sh): no sound server or display needed. Each picture is the
# last frame of a short render to a folder of PNG frames.
# Usage: readme-pictures.sh DECIBAR_BINARY [OUTPUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: readme-pictures.sh DECIBAR_BINARY [OUTPUT_DIR]}
out=${2:-docs/images}
mkdir -p "$out"
work=$(mktemp -d /tmp/decibar-pics.XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"
"$here/demo-signal.sh" "$work/loud.wav"
# 10 dB quieter, so the bars keep some headroom.
ffmpeg -v error -nostdin -y -i "$work/loud.wav" -af volume=-10dB -c:a pcm_f32le "$work/demo.wav"

# A mastered synthetic song at -14 LUFS (Scripts/make-music.sh), for the pictures of music.
"$here/make-music.sh" "$work/music.wav" 1 -14

# picture NAME SECONDS [render options...]: the frame at SECONDS of the demo track
# (INPUT=music for the song).
picture() {
  local name=$1 seconds=$2
  shift 2
  "$bin" render "$work/${INPUT:-demo}.wav" -o "$work/$name/" --size 1280x720 --fps 30 --duration "$seconds" "$@" 2>/dev/null
  cp "$(ls "$work/$name"/frame-*.png | tail -n 1)" "$out/$name.png"
}

# The same frame of the song with seed 003's fixed mapping and with automatic sensitivity.
INPUT=music picture music-fixed 30.0 --bars 48 --no-autosens
INPUT=music picture music-autosens 30.0 --bars 48
INPUT=music picture meter-loudness 30.0 --mode meter --meter-scale lufs --loudness-target -23 --loudness-target -14

picture play 8.0 --bars 64
picture bars-24 3.77 --bars 24 --theme sunset
picture spectrum 4.3 --mode spectrum --caps --bars 64
picture meter 3.1 --mode meter
picture bottom-fire 3.6 --orientation bottom --theme fire --caps --bar-width 14 --bar-spacing 4
picture top-ocean 3.2 --mode spectrum --orientation top --theme ocean --bars 48
picture transparent 3.4 --background transparent --theme sunset --bars 32
picture shader 3.3 --shader-dir "$here/../Shaders/examples" --theme forest --bars 40
# The beat accent: the song's drums from 8 s, bars flashing on each beat; 3 s at 20 fps as a GIF.
"$bin" render "$work/music.wav" -o "$work/beats/" --size 480x270 --fps 20 --duration 11 --beat-accent --bars 32 --theme sunset 2>/dev/null
ffmpeg -v error -nostdin -y -start_number 161 -framerate 20 -i "$work/beats/frame-%06d.png" -frames:v 60 \
  -vf "scale=360:-1:flags=lanczos,split[a][b];[a]palettegen=max_colors=64[p];[b][p]paletteuse=dither=none" "$out/beat-accent.gif"
# A short GIF for the top of the README: spectrum with caps, 6 s at 15 fps.
"$bin" render "$work/demo.wav" -o "$out/demo.gif" --size 640x360 --fps 15 --duration 6 --mode spectrum --caps --bars 48 2>/dev/null
echo "pictures written to $out"
