#!/usr/bin/env bash
# Allocations per display frame of each mode, split between Decibar's own code and the OpenGL driver
# (Mesa's llvmpipe here, which allocates inside every draw call). Each mode runs twice under
# heaptrack, for N and 2N frames; the difference, divided by N, is what a running frame costs,
# without anything made once at start. Usage: [MODES="bars radial ..."] bench-frame-allocations.sh [N]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
frames=${1:-500}
command -v heaptrack >/dev/null || { echo "bench-frame-allocations: needs heaptrack (apt-get install heaptrack)" >&2; exit 1; }
swift build -c release --package-path "$root/Benchmarks" --product FrameDriver -Xswiftc -g 2>&1 \
  | grep -E "error|Build complete" || true
driver="$root/Benchmarks/.build/release/FrameDriver"
work=$(mktemp -d /tmp/decibar-frame-allocations.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Calls to allocation functions by their immediate caller's library: "ours" is everything but the
# driver (Swift's allocator, libc's for our C libraries), "driver" is Mesa, the LLVM it compiles
# with, and code with no symbols at all (the shaders llvmpipe compiled at run time).
count() {
  local mode=$1 n=$2
  (cd "$work" && rm -f heaptrack.* && heaptrack -o "$work/trace" "$driver" "$mode" "$n" >/dev/null 2>&1)
  heaptrack_print "$work"/trace.* 2>/dev/null | awk '
    /^MOST CALLS TO ALLOCATION FUNCTIONS/ { on = 1; next }
    /^PEAK MEMORY CONSUMERS/ { on = 0 }
    on && /calls to allocation functions with/ { calls = $1; getline; getline where
      if (where ~ /dri|libGL|libgallium|libLLVM|libglapi|libEGL|in \?\?/) driver += calls; else ours += calls }
    END { printf "%d %d\n", ours, driver }'
  rm -f "$work"/trace.*
}

printf '%-10s %22s %22s\n' mode "ours per frame" "driver per frame"
for mode in ${MODES:-bars spectrum meter spectrogram scope radial shadertoy:$root/Shaders/examples/spectrum-ring.glsl}; do
  read -r ours1 driver1 < <(count "$mode" "$frames")
  read -r ours2 driver2 < <(count "$mode" $((2 * frames)))
  awk -v m="$mode" -v o1="$ours1" -v o2="$ours2" -v d1="$driver1" -v d2="$driver2" -v n="$frames" \
    'BEGIN { sub(/:.*\//, ":", m); printf "%-10s %22.2f %22.1f\n", m, (o2 - o1) / n, (d2 - d1) / n }'
done
echo "goal: 0 allocations per frame in Decibar's own code"
