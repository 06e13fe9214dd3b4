#!/usr/bin/env bash
# Renders docs/gallery.md's pictures into docs/images/ with the given decibar (default: the release
# build): a generated song (make-music.sh), a stereo mix of two for the scope, and a copy with cover
# art for the radial layout. Each is frame 29 (at 1 fps) of a 960x540 render. pngquant, when
# installed, makes the files smaller.
# Usage: make-gallery.sh [DECIBAR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build/release/decibar}
out=$root/docs/images
work=$(mktemp -d /tmp/decibar-gallery.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$here/make-music.sh" "$work/song.wav" 0 -14 >/dev/null
"$here/make-music.sh" "$work/other.wav" 1 -14 >/dev/null
# Two songs, one leaning left and one right: a stereo image with some width.
ffmpeg -v error -nostdin -i "$work/song.wav" -i "$work/other.wav" -filter_complex \
  "[0]pan=mono|c0=0.5*c0+0.5*c1[a];[1]pan=mono|c0=0.5*c0+0.5*c1[b];[a][b]amerge=inputs=2,pan=stereo|c0=0.8*c0+0.35*c1|c1=0.35*c0+0.8*c1" \
  -t 40 "$work/wide.wav"
ffmpeg -v error -nostdin -f lavfi -i "testsrc2=s=600x600:d=1" -frames:v 1 "$work/cover.png"
ffmpeg -v error -nostdin -i "$work/song.wav" -i "$work/cover.png" -t 40 -map 0:a -map 1:v -c:a libmp3lame -b:a 128k \
  -c:v png -disposition:v attached_pic -id3v2_version 3 "$work/song-cover.mp3"
shot() {
  local name=$1 input=$2
  shift 2
  "$decibar" render "$input" "$@" -o "$work/$name/" --size 960x540 --fps 1 --duration 31 >/dev/null
  cp "$work/$name/frame-000029.png" "$out/gallery-$name.png"
}
shot spectrogram "$work/song.wav" --mode spectrogram
shot scope "$work/wide.wav" --mode scope --theme ocean
shot radial-cover "$work/song-cover.mp3" --layout radial --caps
shot radial-spectrum "$work/song.wav" --mode spectrum --layout radial --caps --theme sunset
shot scrubber-spectrogram "$work/song.wav" --scrubber spectrogram --mode spectrum --caps
shot shadertoy-ring "$work/song.wav" --shader "$root/Shaders/examples/spectrum-ring.glsl"
shot shadertoy-aurora "$work/song.wav" --shader "$root/Shaders/examples/aurora.glsl"
shot shadertoy-scope "$work/song.wav" --shader "$root/Shaders/examples/scope-glow.glsl"
"$decibar" spectrogram "$work/song.wav" -o "$out/gallery-file-spectrogram.png" --size 960x540
if command -v pngquant >/dev/null; then
  for file in "$out"/gallery-*.png; do pngquant --force --quality 70-95 --output "$file" "$file"; done
fi
ls -l "$out"/gallery-*.png
