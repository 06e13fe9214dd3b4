#!/usr/bin/env bash
# Installs the Debian 12 packages Decibar needs to build, run and test. Safe to run again.
# Usage: install-deps.sh [--bench]   (--bench adds cava, the reference for CPU benchmarks, and
# heaptrack, which attributes a frame's allocations, bc and GNU time for the scaling figures, and
# Frozen Bubble's music, freely licensed real music for the beats' comparison with aubio, and
# projectMSDL, projectM's own app, the peer of Milkdrop's benchmark)
set -euo pipefail
packages=(
  # build: C libraries behind the adapters, and pkg-config to find them
  pkg-config libpulse-dev libfftw3-dev libsdl2-dev libsdl2-ttf-dev libgl-dev libegl-dev libpng-dev
  libavformat-dev libavcodec-dev libswresample-dev libswscale-dev libavutil-dev libebur128-dev libsystemd-dev
  libcurl4-openssl-dev librubberband-dev libsndfile1-dev liblo-dev libfontconfig-dev libpipewire-0.3-dev
  # build: libprojectM 3.1 and a C++ compiler for the Milkdrop plug-in; run: projectM's presets
  libprojectm-dev g++ projectm-data
  # test: patchelf, to make a Milkdrop plug-in whose libprojectM is missing
  patchelf
  # run: Mesa's OpenGL, a PulseAudio server and its tools (private server, demo playback), a font,
  # and fontconfig, which finds fonts for the letters it lacks
  libgl1-mesa-dri libegl-mesa0 pulseaudio pulseaudio-utils fonts-dejavu-core libfontconfig1
  # test: a real X server and real input events, ffmpeg and sox to make and check media
  xvfb xauth ffmpeg sox xdotool socat systemd python3
  # test: files dropped on a window as a file manager drops them (XDND, Scripts/xdnd-drop.py)
  python3-xlib
  # test: a real window manager for desktop layers, and xprop, xwininfo and xev to look at them
  openbox x11-utils
  # test: Wayland desktops: sway (wlr-layer-shell; swaymsg), grim for its screenshots, foot as a
  # window over a layer, and weston, whose desktop shell has no layer shell
  sway grim foot weston
  # build and run: libsixel (decibar term's sixel images; opened on first use)
  libsixel-dev libsixel1
  # test: terminals decibar term draws in: tmux (capture-pane), xterm (VT340 sixel), kitty (its graphics)
  tmux xterm kitty
  # test: a desktop's MPRIS client, and cava as the reference for the ascii feed's shape
  playerctl cava
  # test: Rubber Band's own command, one whole stretch to hold the pieces of scale --keep-pitch against
  rubberband-cli
  # install checks: desktop-file-validate for the launcher, man and groff to render the man pages
  desktop-file-utils man-db groff-base
  # the package: binutils (strip, objdump) and cpp for make-deb.sh, lintian for its check
  binutils cpp lintian
  # run: libpipewire, PipeWire's own client library (the native backend)
  libpipewire-0.3-0
  # test: a private PipeWire server with its PulseAudio front end (pipewire-start.sh), dbus, and
  # PipeWire's own tools (pw-link, pw-play, wpctl)
  pipewire pipewire-pulse pipewire-bin wireplumber dbus
  # test: the soak's plot of memory, fds, threads and subscriber lines (Scripts/soak-plot.py)
  python3-matplotlib
  # test: material with known beats (Scripts/make-beats.py), and aubio's beat tracker beside ours
  python3-numpy aubio-tools
  # test: real receivers of what --send sends: oscdump reads OSC, headless Chromium opens the page
  liblo-tools chromium
  # test: tesseract reads the words drawn on a frame (titles, lyrics, captions)
  tesseract-ocr tesseract-ocr-eng
  # test: Chinese and Arabic text drawn and read back: a CJK font (Droid Sans Fallback), tesseract's models
  fonts-droid-fallback tesseract-ocr-chi-sim tesseract-ocr-ara
  # test: strace counts how often a render opens its audio (several outputs decode it once)
  strace
  # test: a network namespace of the test's own for WLED's multicast (unshare is util-linux's)
  iproute2 util-linux
)
if [ "${1:-}" = "--bench" ]; then packages+=(heaptrack bc time frozen-bubble-data projectm-sdl); fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null

# test: a real HTTP server on loopback for streamed tracks. The tests start their own; its package
# must not start one as a service (it would take port 80), so service starts are refused while it
# installs, unless a policy is already in place.
if ! dpkg-query -W -f '${Status}' nginx-light 2>/dev/null | grep -q "ok installed"; then
  policy=/usr/sbin/policy-rc.d
  made_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
    "${sudo[@]}" chmod +x "$policy"
    made_policy=1
  fi
  status=0
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends nginx-light >/dev/null || status=$?
  if [ "$made_policy" = 1 ]; then "${sudo[@]}" rm -f "$policy"; fi
  [ "$status" = 0 ] || exit "$status"
fi
echo "install-deps: system packages are in place"
