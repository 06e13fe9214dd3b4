#!/usr/bin/env bash
# Builds decibar_VERSION_amd64.deb from a release binary: the files `make install` puts under /usr
# (Scripts/install.sh with PREFIX=/usr into a staging folder), man pages compressed, the binary
# stripped, and a control file whose Depends names the package of every shared library the binary
# loads: those it links (NEEDED) and those its adapters open on first use (the sonames in
# Sources/C*/), which dpkg-shlibdeps cannot see.
#
# Usage: make-deb.sh BINARY [OUTPUT_FOLDER]   (make deb builds the binary and runs this)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:?usage: make-deb.sh BINARY [OUTPUT_FOLDER]}
output=${2:-$root}
die() { echo "make-deb: $*" >&2; exit 1; }
[ -x "$binary" ] || die "no binary at $binary"
version=$("$binary" --version) || die "$binary does not run"
architecture=$(dpkg --print-architecture)

stage=$(mktemp -d /tmp/decibar-deb.XXXXXX)
trap 'rm -rf "$stage"' EXIT
package=$stage/package
mkdir -p "$package"
PREFIX=/usr DESTDIR="$package" "$root/Scripts/install.sh" install "$binary" >/dev/null
# dpkg keeps the list of files; an uninstall manifest means nothing inside a package.
rm -f "$package/usr/share/decibar/install-manifest"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$package/usr/bin/decibar" \
  "$package/usr/lib/decibar/libdecibar-milkdrop.so"
gzip -9n "$package"/usr/share/man/man1/*.1

doc=$package/usr/share/doc/decibar
mkdir -p "$doc"
date=$(git -C "$root" log -1 --format=%aD 2>/dev/null || date -R)
# The maintainer: who made the last commit (DEB_MAINTAINER overrides).
maintainer=${DEB_MAINTAINER:-$(git -C "$root" log -1 --format='%an <%ae>' 2>/dev/null)}
case $maintainer in *@*.*'>') ;; *) die "no maintainer address with a domain: set DEB_MAINTAINER='Name <mail@example.org>'" ;; esac
# A native package (no Debian revision): its changelog is changelog.gz.
printf 'decibar (%s) unstable; urgency=medium\n\n  * Built from %s.\n\n -- %s  %s\n' \
  "$version" "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo source)" "$maintainer" "$date" | gzip -9n >"$doc/changelog.gz"
# The binary links FFTW and the Rubber Band Library (GPL-2.0-or-later), and Debian's FFmpeg is built
# with its GPL parts: the package is GPL-2.0-or-later. It also carries, linked in, the Swift runtime
# and Foundation (Apache-2.0 with the Runtime Library Exception), the Swift packages (Apache-2.0)
# and TOMLKit with toml++ (MIT).
cat >"$doc/copyright" <<'COPYRIGHT'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: decibar
Comment: The libraries Decibar uses and their licences are listed in README.md. usr/bin/decibar
 has linked into it: the Swift standard library, Foundation and Dispatch (Apache-2.0 with the
 Runtime Library Exception); swift-argument-parser, swift-nio, swift-log, swift-system and
 swift-numerics (Apache-2.0); TOMLKit and toml++ (MIT). It opens FFTW and the Rubber Band
 Library (GPL-2.0-or-later), which makes the whole GPL-2.0-or-later.

Files: *
Copyright: 2026 the Decibar authors
License: GPL-2.0-or-later
 This program is free software; you can redistribute it and/or modify it under the terms of the
 GNU General Public License as published by the Free Software Foundation; either version 2 of the
 License, or (at your option) any later version.
 .
 This program is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY; without
 even the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See the GNU
 General Public License for more details.
 .
 On Debian systems, the complete text of the GNU General Public License version 2 can be found in
 "/usr/share/common-licenses/GPL-2".

License: Apache-2.0
 On Debian systems, the complete text of the Apache License, Version 2.0 can be found in
 "/usr/share/common-licenses/Apache-2.0".

License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
 associated documentation files (the "Software"), to deal in the Software without restriction,
 including without limitation the rights to use, copy, modify, merge, publish, distribute,
 sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
 furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included in all copies or
 substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
 NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
 OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
 CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
COPYRIGHT

# Every library: the linked ones, then the sonames the loaders open (FFmpeg's from its headers), and
# the Milkdrop plug-in's but libprojectM (Recommends: without it every other mode works).
plugin=$package/usr/lib/decibar/libdecibar-milkdrop.so
sonames=$(objdump -p "$binary" | awk '/NEEDED/ { print $2 }'
  objdump -p "$plugin" | awk '/NEEDED/ && $2 !~ /^libprojectM/ { print $2 }'
  grep -rhoE '"lib[A-Za-z0-9_+.-]+\.so\.[0-9]+"' "$root"/Sources/C*/ | tr -d '"'
  for library in avutil:LIBAVUTIL swresample:LIBSWRESAMPLE avcodec:LIBAVCODEC avformat:LIBAVFORMAT swscale:LIBSWSCALE; do
    name=${library%%:*} macro=${library##*:}
    major=$(printf '#include <lib%s/version.h>\n%s_VERSION_MAJOR\n' "$name" "$macro" | cpp -P -I/usr/include/x86_64-linux-gnu 2>/dev/null | tail -n 1 | tr -d ' ')
    echo "lib$name.so.$major"
  done)
packages=()
for soname in $(echo "$sonames" | sort -u); do
  path=$(ldconfig -p | awk -v name="$soname" '!found && $1 == name && /x86-64/ { print $NF; found = 1 }')
  [ -n "$path" ] || die "no $soname on this machine to name its package"
  # Read whole (sed, not head): a reader that stops early fails the pipe under pipefail.
  owner=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | sed -n '1s/:.*//p' || true)
  [ -n "$owner" ] || owner=$(dpkg -S "$path" 2>/dev/null | sed -n '1s/:.*//p' || true)
  packages+=("$owner")
done
depends=$(printf '%s\n' "${packages[@]}" | sort -u | paste -sd, | sed 's/,/, /g')

mkdir -p "$package/DEBIAN"
(cd "$package" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$package/DEBIAN/md5sums"
cat >"$package/DEBIAN/control" <<CONTROL
Package: decibar
Version: $version
Architecture: $architecture
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$package" | cut -f1)
Depends: $depends
Recommends: libprojectm3, projectm-data
Section: sound
Priority: optional
Description: real-time audio level visualizer daemon for PulseAudio and PipeWire
 Decibar taps what is playing (or plays files and HTTP streams itself) and turns
 it into levels, a spectrum, loudness and beats: animated symmetric bars and a
 waveform scrubber to seek with. One daemon owns the tap, the player and the
 window; hotkeys, scripts, media keys and status bars talk to it on a socket.
 With libprojectm3 and projectm-data it also draws projectM's Milkdrop presets.
CONTROL
chmod 0644 "$package/DEBIAN/control" "$package/DEBIAN/md5sums"
deb=$output/decibar_${version}_$architecture.deb
dpkg-deb --root-owner-group -Zxz --build "$package" "$deb" >/dev/null
echo "$deb"
