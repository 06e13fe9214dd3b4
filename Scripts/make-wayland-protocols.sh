#!/bin/bash
# Compiles the Wayland protocols Decibar speaks beyond the core one into C with wayland-scanner
# (Debian's libwayland-bin): a client header and the interface tables. Their output is kept in
# the repository, so building needs no scanner; run this after changing a protocol's XML.
set -euo pipefail
cd "$(dirname "$0")/../Sources/CWayland"
for xml in protocols/*.xml; do
  name=$(basename "$xml" .xml)
  wayland-scanner client-header "$xml" "include/$name-client-protocol.h"
  wayland-scanner private-code "$xml" "protocols/$name-protocol.c"
done
echo "generated: $(ls protocols/*.xml | wc -l) protocol(s)"
