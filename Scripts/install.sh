#!/usr/bin/env bash
# Installs Decibar from a binary that is already built, or removes what an earlier install put in
# place. PREFIX (default /usr/local) and DESTDIR (default none) come from the environment, as
# `make install`, `make install-files` and `make uninstall` pass them.
#
# Usage: install.sh install BINARY   the binary, shaders, user unit, launcher, man pages,
#                                     completions and example configs (see README.md, Install)
#        install.sh uninstall         removes exactly what the manifest lists
#        install.sh manual-tool       builds swift-argument-parser's generate-manual if needed
#                                     and prints its path (GENERATE_MANUAL=PATH uses that one)
#
# Every file installed and every folder the install had to create is listed in
# PREFIX/share/decibar/install-manifest, so uninstall removes those files, then those folders if
# they are empty, and nothing else.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
prefix=${PREFIX:-/usr/local}
destdir=${DESTDIR:-}
manifest_path=$prefix/share/decibar/install-manifest

verb=${1:-}
die() { echo "${verb:-install}: $*" >&2; exit 1; }

case $prefix in
  /*) ;;
  *) die "PREFIX must be an absolute path (it is written into the unit and the launcher): $prefix" ;;
esac
case $prefix$destdir in *$'\n'*) die "PREFIX and DESTDIR cannot hold a line break" ;; esac
# ExecStart= and Exec= split their command line at spaces.
case $prefix in *[[:space:]]*) die "PREFIX cannot hold spaces (the unit and the launcher name the binary by it): $prefix" ;; esac
prefix=${prefix%/}

# generate-manual turns `decibar --experimental-dump-help` into man pages. The package plugin that
# wraps it builds every product of the package first, so the tool alone is built instead, once,
# from the swift-argument-parser checkout the binary was built with, into .build-tools/ (about
# 15 s). The sources are copied there first so that nothing is written into .build/.
manual_tool() {
  if [ -n "${GENERATE_MANUAL:-}" ]; then echo "$GENERATE_MANUAL"; return; fi
  local source=$root/.build/checkouts/swift-argument-parser
  if [ ! -f "$source/Package.swift" ]; then
    (cd "$root" && swift package resolve >&2)
  fi
  # Keyed by the sources, so that a new swift-argument-parser gets its own tool.
  local key
  key=$(cd "$source" && find . \( -name .git -o -name .build \) -prune -o -type f -print0 \
    | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
  local cache=$root/.build-tools
  local tool=$cache/generate-manual-$key/debug/generate-manual
  # Installs may run side by side (tests do): one builds, the others wait for it.
  mkdir -p "$cache"
  local lock
  exec {lock}>"$cache/lock"
  flock "$lock"
  if [ ! -x "$tool" ]; then
    echo "install: building generate-manual from swift-argument-parser (once)" >&2
    rm -rf "$cache/src" "$cache"/generate-manual-*
    mkdir -p "$cache/src"
    tar -C "$source" --exclude=./.git --exclude=./.build -cf - . | tar -C "$cache/src" -xf -
    if ! swift build --package-path "$cache/src" --scratch-path "$cache/generate-manual-$key" \
        --product generate-manual >"$cache/build.log" 2>&1; then
      tail -n 30 "$cache/build.log" >&2
      die "building generate-manual failed (log: $cache/build.log)"
    fi
  fi
  exec {lock}>&-
  echo "$tool"
}

# The folders that installing into $1 would create, outermost first (paths without DESTDIR). Only
# PREFIX and folders in it count: uninstall never touches anything outside PREFIX.
missing_folders() {
  local dir=$1 missing=()
  while [[ $dir != / && ( $dir == "$prefix" || $dir == "$prefix"/* ) ]] && [ ! -d "$destdir$dir" ]; do
    missing=("$dir" "${missing[@]}")
    dir=$(dirname "$dir")
  done
  if [ ${#missing[@]} -gt 0 ]; then printf '%s\n' "${missing[@]}"; fi
}

# Reads a manifest into the arrays old_files and old_folders, keeping only paths under PREFIX
# (a manifest that was edited by hand cannot send uninstall elsewhere).
read_manifest() {
  old_files=() old_folders=()
  local kind path
  while IFS=' ' read -r kind path; do
    case $kind in '#'*|'') continue ;; esac
    case $kind:$path in file:"$prefix"/*|folder:"$prefix"|folder:"$prefix"/*) ;;
      *) echo "$verb: ignoring $path: not under $prefix" >&2; continue ;;
    esac
    case /$path/ in */../*|*/./*) echo "$verb: ignoring $path" >&2; continue ;; esac
    case $kind in
      file) old_files+=("$path") ;;
      folder) old_folders+=("$path") ;;
    esac
  done <"$1"
}

do_install() {
  local binary=${1:?usage: install.sh install BINARY}
  [ -x "$binary" ] || die "no decibar binary at $binary (make release builds one)"
  local version
  version=$("$binary" --version) || die "$binary does not run"

  # Everything that is generated is made first, in a scratch folder, so that a failure leaves the
  # destination untouched. (stage is global: the trap runs after this function has returned.)
  stage=$(mktemp -d /tmp/decibar-install.XXXXXX)
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$stage/man" "$stage/completions"

  local tool date
  tool=$(manual_tool)
  # The pages carry a date: the last commit's, so the same sources give the same pages.
  if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)
  else
    date=$(git -C "$root" log -1 --format=%cs 2>/dev/null || date -u +%F)
  fi
  "$tool" "$binary" --multi-page --date "$date" --output-directory "$stage/man" >/dev/null
  compgen -G "$stage/man/*.1" >/dev/null || die "generate-manual wrote no pages"

  "$binary" --generate-completion-script bash >"$stage/completions/decibar"
  "$binary" --generate-completion-script zsh >"$stage/completions/_decibar"
  "$binary" --generate-completion-script fish >"$stage/completions/decibar.fish"
  "$binary" config init "$stage/config.toml" >/dev/null

  # The unit and the launcher name the installed binary by its full path (without DESTDIR, which
  # is only where a package is assembled).
  local bin_for_sed
  bin_for_sed=$(printf '%s' "$prefix/bin/decibar" | sed 's/[&|\\]/\\&/g')
  sed "s|^ExecStart=[^ ]*decibar\\b|ExecStart=$bin_for_sed|" \
    "$root/contrib/systemd/decibar.service" >"$stage/decibar.service"
  grep -qxF "ExecStart=$prefix/bin/decibar daemon" "$stage/decibar.service" \
    || die "could not point ExecStart at $prefix/bin/decibar"
  sed "s|^Exec=decibar\\b|Exec=$bin_for_sed|" "$root/contrib/decibar.desktop" >"$stage/decibar.desktop"

  # What goes where: mode, source, path under PREFIX.
  local entries=(
    "0755 $binary bin/decibar"
    "0644 $stage/decibar.service lib/systemd/user/decibar.service"
    "0644 $stage/decibar.desktop share/applications/decibar.desktop"
    "0644 $stage/completions/decibar share/bash-completion/completions/decibar"
    "0644 $stage/completions/_decibar share/zsh/site-functions/_decibar"
    "0644 $stage/completions/decibar.fish share/fish/vendor_completions.d/decibar.fish"
    "0644 $stage/config.toml share/doc/decibar/examples/config.toml"
    "0644 $root/contrib/waybar/config.jsonc share/doc/decibar/examples/waybar/config.jsonc"
    "0644 $root/contrib/waybar/style.css share/doc/decibar/examples/waybar/style.css"
    "0644 $root/contrib/polybar/config.ini share/doc/decibar/examples/polybar/config.ini"
  )
  # The Milkdrop plug-in is built beside the binary (Scripts/build-milkdrop.sh).
  local plugin
  plugin=$(dirname "$binary")/libdecibar-milkdrop.so
  [ -f "$plugin" ] || die "no Milkdrop plug-in beside $binary (Scripts/build-milkdrop.sh $(dirname "$binary") builds it)"
  entries+=("0644 $plugin lib/decibar/libdecibar-milkdrop.so")
  local page shader
  for page in "$stage"/man/*.1; do
    entries+=("0644 $page share/man/man1/$(basename "$page")")
  done
  while IFS= read -r shader; do
    entries+=("0644 $root/Shaders/$shader share/decibar/Shaders/$shader")
  done < <(cd "$root/Shaders" && find . -type f \( -name '*.vert' -o -name '*.frag' \) | sed 's|^\./||' | sort)

  # The manifest: every file, and every folder that does not exist yet. Folders an earlier install
  # created are kept in it, so that reinstalling and then uninstalling still removes them.
  local files=() folders=() entry mode source target
  for entry in "${entries[@]}"; do
    read -r mode source target <<<"$entry"
    files+=("$prefix/$target")
  done
  files+=("$manifest_path")
  local old_files=() old_folders=()
  if [ -f "$destdir$manifest_path" ]; then read_manifest "$destdir$manifest_path"; fi
  local file
  mapfile -t folders < <(
    for file in "${files[@]}"; do missing_folders "$(dirname "$file")"; done
    for file in "${old_folders[@]}"; do [ -d "$destdir$file" ] && echo "$file"; done
    true
  )
  mapfile -t folders < <(if [ ${#folders[@]} -gt 0 ]; then printf '%s\n' "${folders[@]}" | sort -u; fi)

  # An earlier install's files that this one no longer has (a man page of a removed command).
  local stale
  for stale in "${old_files[@]}"; do
    if ! printf '%s\n' "${files[@]}" | grep -qxF -- "$stale"; then rm -f -- "$destdir$stale"; fi
  done

  for file in "${folders[@]}"; do mkdir -p -- "$destdir$file"; done
  for entry in "${entries[@]}"; do
    read -r mode source target <<<"$entry"
    mkdir -p -- "$(dirname "$destdir$prefix/$target")"
    install -m "$mode" -- "$source" "$destdir$prefix/$target"
  done
  {
    echo "# Installed by make install (decibar $version); make uninstall removes these."
    for file in "${files[@]}"; do echo "file $file"; done
    for file in "${folders[@]}"; do echo "folder $file"; done
  } >"$destdir$manifest_path.new"
  mv -f -- "$destdir$manifest_path.new" "$destdir$manifest_path"
  echo "install: decibar $version in $destdir$prefix (${#files[@]} files; list in $destdir$manifest_path)"
}

do_uninstall() {
  local manifest=$destdir$manifest_path
  [ -f "$manifest" ] || die "nothing to uninstall: no $manifest (installed with another PREFIX or DESTDIR?)"
  local old_files=() old_folders=() file
  read_manifest "$manifest"
  for file in "${old_files[@]}"; do
    # Only files and links: a folder where a file was is not ours.
    if [ -f "$destdir$file" ] || [ -L "$destdir$file" ]; then rm -f -- "$destdir$file"; fi
  done
  rm -f -- "$manifest"
  # Innermost first, and only when empty: whatever else was put there stays.
  if [ ${#old_folders[@]} -gt 0 ]; then
    while IFS= read -r file; do
      rmdir -- "$destdir$file" 2>/dev/null || true
    done < <(printf '%s\n' "${old_folders[@]}" | sort -r)
  fi
  echo "uninstall: removed ${#old_files[@]} files from $destdir$prefix"
}

case ${1:-} in
  install) shift; do_install "$@" ;;
  uninstall) do_uninstall ;;
  manual-tool) manual_tool ;;
  *) die "usage: install.sh install BINARY | uninstall | manual-tool" ;;
esac
