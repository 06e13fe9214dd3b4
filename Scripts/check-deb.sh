#!/usr/bin/env bash
# Checks a built decibar_*.deb as a Debian 12 user would meet it: lintian reports no error,
# `apt-get install ./decibar_*.deb` installs it, /usr/bin/decibar answers --version with an empty
# environment, ldd names no library from the Swift toolchain's folder (nor anything missing), Depends
# names the package of every library the adapters open on first use, and `apt-get purge` leaves none of its files.
# Prints one "ok: ..." line per check; any failure ends it with status 1. Needs root (or sudo -n).
#
# Usage: check-deb.sh PACKAGE.deb
set -euo pipefail
deb=${1:?usage: check-deb.sh PACKAGE.deb}
[ -f "$deb" ] || { echo "check-deb: no package at $deb (make deb builds one)" >&2; exit 1; }
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
fail() { echo "check-deb: $*" >&2; exit 1; }
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  fail "installing a package needs root (or sudo without a password)"
fi
for tool in lintian dpkg-deb apt-get ldd; do
  command -v "$tool" >/dev/null || fail "$tool not found (Scripts/install-deps.sh installs it)"
done
if dpkg-query -W -f='${Status}' decibar 2>/dev/null | grep -q "installed"; then
  fail "a decibar package is already installed here; this check would replace and purge it"
fi

# lintian (the slowest check) reads the package on the other core while it is installed.
lintian_report=$(mktemp /tmp/decibar-lintian.XXXXXX)
lintian --no-tag-display-limit "$deb" >"$lintian_report" 2>&1 &
lintian_pid=$!

# Without dpkg's fsync of every file: the package installed is the same, and the syncs only slow
# the check (and the disk under anything else running).
apt=(apt-get -o Dpkg::Options::=--force-unsafe-io)
files=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|' | grep -v '/$')
trap '"${sudo[@]}" "${apt[@]}" purge -y -qq decibar >/dev/null 2>&1 || true' EXIT
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" "${apt[@]}" install -y -qq "$deb" >/dev/null 2>&1 \
  || fail "apt-get install $deb failed: $(DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y "$deb" 2>&1 | tail -3)"
echo "ok: apt-get install ./$(basename "$deb")"

version=$(env -i /usr/bin/decibar --version) || fail "/usr/bin/decibar --version failed with an empty environment"
echo "ok: env -i /usr/bin/decibar --version: $version"

linked=$(ldd /usr/bin/decibar)
if grep -qi 'swift\|not found' <<<"$linked"; then fail "ldd /usr/bin/decibar:"$'\n'"$linked"; fi
echo "ok: ldd names $(wc -l <<<"$linked") libraries, none from the Swift toolchain and none missing"

# The libraries opened on first use (which dpkg-shlibdeps cannot see): the package of each must be
# in Depends, so that it is there on a machine where only the package was installed.
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//')
count=0
for soname in $(grep -rhoE '(DECIBAR_DEFINE_LOADER\([^,]+, *[^,]+, *|\.soname = )"[^"]+"' "$(dirname "$0")"/../Sources/C*/*.c | grep -oE '"[^"]+"' | tr -d '"' | sort -u); do
  path=$(ldconfig -p | awk -v name="$soname" '!found && $1 == name && /x86-64/ { print $NF; found = 1 }')
  [ -n "$path" ] || fail "$soname, which decibar opens on first use, is not on this machine"
  owner=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | sed -n '1s/:.*//p' || true)
  [ -n "$owner" ] || owner=$(dpkg -S "$path" 2>/dev/null | sed -n '1s/:.*//p' || true)
  grep -qx "$owner" <<<"$depends" || fail "Depends lacks $owner (for $soname, opened on first use)"
  count=$((count + 1))
done
echo "ok: Depends names the package of each of the $count libraries opened on first use"

# The Milkdrop plug-in: installed, every library it needs found, libprojectM only recommended.
plugin=/usr/lib/decibar/libdecibar-milkdrop.so
[ -f "$plugin" ] || fail "no Milkdrop plug-in at $plugin"
linked=$(ldd "$plugin")
if grep -qi 'swift\|not found' <<<"$linked"; then fail "ldd $plugin:"$'\n'"$linked"; fi
dpkg-deb -f "$deb" Recommends | grep -q 'libprojectm3' || fail "Recommends does not name libprojectm3"
echo "ok: the Milkdrop plug-in finds its libraries; Recommends: $(dpkg-deb -f "$deb" Recommends)"

"${sudo[@]}" "${apt[@]}" purge -y -qq decibar >/dev/null 2>&1 || fail "apt-get purge decibar failed"
trap - EXIT
left=$(while read -r file; do [ -e "$file" ] && echo "$file"; done <<<"$files" || true)
[ -z "$left" ] || fail "apt-get purge left:"$'\n'"$left"
[ ! -e /usr/share/decibar ] || fail "apt-get purge left /usr/share/decibar"
echo "ok: apt-get purge removes all $(wc -l <<<"$files") files"

# lintian: errors fail; warnings are counted for the reader.
wait "$lintian_pid" || true
report=$(cat "$lintian_report"); rm -f "$lintian_report"
if grep -q '^E: ' <<<"$report"; then fail "lintian reports errors:"$'\n'"$(grep '^E: ' <<<"$report")"; fi
echo "ok: lintian reports no error ($(grep -c '^W: ' <<<"$report" || true) warnings)"
