#!/usr/bin/env bash
# Every benchmark, in order: release build, micro-benchmarks (package-benchmark), the processor
# against a plain C loop, audio-to-frame latency, CPU against cava, the player and streaming. Each section prints its
# figures with its goal. The release build goes to .build-release so it never disturbs .build; it is
# built as make release and the package build it (Swift runtime inside, no C library linked).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"

command -v swift >/dev/null || { echo "bench: swift not found on PATH" >&2; exit 1; }
section() { printf '\n=== %s ===\n' "$1"; }
# Build chatter and the main package's pkg-config warnings say nothing about the figures.
quiet() { grep -v -E '^(warning: prohibited flag|\[[0-9]+/[0-9]+\]|Building for|Compiling|Write |Linking|Planning|Fetching|Computing|Computed|Creating working copy|Working copy)' || true; }

section "Release build (decibar)"
swift build -c release --product decibar --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie \
  --scratch-path "$root/.build-release" 2>&1 | quiet
"$here/build-milkdrop.sh" "$root/.build-release/release" release

section "Micro-benchmarks (package-benchmark; per buffer, per delivery or per display frame; allocation goal 0)"
(cd Benchmarks && swift package --disable-sandbox benchmark --no-progress 2>&1) | quiet

section "Allocations per display frame: Decibar's code against the OpenGL driver (heaptrack)"
"$here/bench-frame-allocations.sh"

section "LevelProcessor.process against plain C"
swift build -c release --package-path Benchmarks --product ProcessorVersusC 2>&1 | quiet
Benchmarks/.build/release/ProcessorVersusC

section "Start-up: decibar --version and ctl status against playerctl --version"
"$here/bench-startup.sh" "$root/.build-release/release/decibar"

section "Audio-to-frame latency (decibar live), at 60 Hz and at 144 Hz"
"$here/bench-latency.sh" "$root/.build-release/release/decibar"
FPS=144 "$here/bench-latency.sh" "$root/.build-release/release/decibar"

section "CPU: decibar levels, spectrum and the daemon against cava, loudness against ffmpeg (30 s each)"
"$here/bench-cpu.sh" "$root/.build-release/release/decibar" 30 all

section "One app: CPU of levels --app against the whole-output tap (1 and 8 streams, 30 s each)"
"$here/bench-apps.sh" "$root/.build-release/release/decibar" 30

section "Beats: cost beside levels and aubio, F-measure beside aubio, live latency"
"$here/bench-beats.sh" "$root/.build-release/release/decibar" 30

section "Outputs of --send: CPU of each against levels alone (30 s)"
"$here/bench-outputs.sh" "$root/.build-release/release/decibar" 30

section "Player: overview against ffmpeg -f null, peak memory, first frame, seek latency"
"$here/bench-player.sh" "$root/.build-release/release/decibar"

section "Streaming: first audio over HTTP against ffmpeg, CPU and memory against playing from disk"
"$here/bench-stream.sh" "$root/.build-release/release/decibar"

section "Scaling: a 60-minute file against sox speed, --keep-pitch against rubberband -3"
"$here/bench-scale.sh" "$root/.build-release/release/decibar"

section "Rate and pitch: playback CPU at rate 1.5 / pitch +300 against rate 1"
"$here/bench-rate.sh" "$root/.build-release/release/decibar"

section "Video: CPU with the picture against --video-layout off (720p30), frames on time at 1080p60"
"$here/bench-video.sh" "$root/.build-release/release/decibar"

section "Scrubber zoom: a 60-minute FLAC zoomed to 10 ms a pixel, the frame that shows it"
"$here/bench-zoom.sh" "$root/.build-release/release/decibar"

section "Desktop layers: CPU of a background layer and an overlay strip against the window, and covered"
"$here/bench-layers.sh" "$root/.build-release/release/decibar"

section "Idle CPU: the live window with silence playing"
"$here/bench-idle.sh" "$root/.build-release/release/decibar"

section "The daemon: round trip, idle, subscribers against cava, frame pacing, RSS"
RSS_SECONDS=${RSS_SECONDS:-600} "$here/bench-daemon.sh" "$root/.build-release/release/decibar"

section "Render speed against ffmpeg encoding the same frames alone"
"$here/bench-render.sh" "$root/.build-release/release/decibar"

section "Milkdrop against projectMSDL: ten presets of the default list at 1280x720 and 1920x1080, frame times from Mesa's HUD"
"$here/bench-milkdrop-peer.py" --binary "$root/.build-release/release/decibar"

section "Milkdrop transitions: a frame blending two presets against a frame of one, each style, 1280x720"
"$here/bench-transitions.py" --binary "$root/.build-release/release/decibar"

section "On-screen display: nothing shown, the stats and controller, the preset list while typing (1280x720)"
"$here/bench-onscreen.sh" "$root/.build-release/release/decibar" "${BASE_BINARY:-}"
