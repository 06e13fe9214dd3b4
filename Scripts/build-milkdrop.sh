#!/usr/bin/env bash
# Builds Decibar's Milkdrop plug-in, libdecibar-milkdrop.so, into FOLDER (beside the decibar binary
# built there, where decibar looks for it first). It is C++ over libprojectM 3.1
# (Sources/MilkdropPlugin) and needs libprojectm-dev. Usage: build-milkdrop.sh FOLDER [debug|release]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
folder=${1:?usage: build-milkdrop.sh FOLDER [debug|release]}
kind=${2:-release}
case $kind in
  debug) flags=(-O0 -g) ;;
  release) flags=(-O2) ;;
  *) echo "build-milkdrop: debug or release, not $kind" >&2; exit 2 ;;
esac
# Sanitized builds pass their -fsanitize flag here, and the Swift toolchain's clang++ as the
# compiler: a plug-in built by g++ with GCC's sanitizer runtime cannot load into a binary that has
# clang's (Scripts/sanitized-tests.sh).
read -r -a extra <<< "${MILKDROP_CXXFLAGS:-}"
compiler=${MILKDROP_CXX:-c++}
mkdir -p "$folder"
source=$root/Sources/MilkdropPlugin/milkdrop.cpp
output=$folder/libdecibar-milkdrop.so
# Rebuilt only when the source or its header changed.
if [ -f "$output" ] && [ "$output" -nt "$source" ] && [ "$output" -nt "$root/Sources/CMilkdrop/include/decibar_milkdrop.h" ] \
   && [ -z "${extra[*]}" ]; then
  exit 0
fi
$compiler -std=c++14 -shared -fPIC -Wall -Wextra "${flags[@]}" "${extra[@]}" \
  -I "$root/Sources/CMilkdrop/include" "$source" -Wl,--as-needed -lprojectM -o "$output.tmp"
mv "$output.tmp" "$output"
