#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/, with AddressSanitizer) and runs each for SECONDS (default 600):
# FuzzOverviewReader (audiowaveform .dat and JSON readers), FuzzDecoder (opening and decoding a
# file from its bytes) and FuzzControlLine (the daemon's control lines: splitting and parsing). Seeds are made here: overviews written by decibar itself, and a short file
# in every format the decoder reads. Corpora and crash reproducers stay in .build-fuzz/work.
# Usage: fuzz.sh [SECONDS [TARGET...]]   (all targets by default)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("${@:-FuzzOverviewReader FuzzDecoder FuzzControlLine}")
targets=(${targets[*]})
work=.build-fuzz/work
mkdir -p "$work"

swift build --product decibar
for target in FuzzOverviewReader FuzzDecoder FuzzControlLine; do
  # One -sanitize=fuzzer,address for the compiler: the Swift driver keeps only the last -sanitize=
  # it is given, and `--sanitize=fuzzer --sanitize=address` hands it two in no fixed order, so a
  # build got either coverage (and no AddressSanitizer) or AddressSanitizer (and no coverage: the
  # fuzzer then ran blind). --sanitize=fuzzer stays for what SwiftPM does around it (the fuzz
  # targets' entry point is libFuzzer's main). lld: with the default gold linker the coverage
  # counters' section bounds are lost.
  DECIBAR_FUZZ=1 swift build --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
    -Xswiftc -use-ld=lld --product "$target"
done

# Seeds.
seeds=$(mktemp -d /tmp/decibar-fuzz-seeds.XXXXXX)
trap 'rm -rf "$seeds"' EXIT
mkdir -p "$seeds/overview" "$seeds/decoder" "$seeds/control" "$work/overview" "$work/decoder" "$work/control"
# Control lines: a chunk-size byte, then requests as clients send them.
printf '\x07{"command": ["seek", 90, "absolute"], "request_id": 7}\n{"command":["get_status"]}\n' > "$seeds/control/seek"
printf '\x20{"command": ["open", ["/a.flac", "/b.flac"], "append"]}\r\n# note\n\n{"command": ["set", "bars", "48"]}\n' > "$seeds/control/open"
printf '\x01{"command": ["subscribe", "spectrum", 60, 32], "request_id": 1}\n{"command":["set","loudness_targets",[-23,-14]]}\n' > "$seeds/control/subscribe"
ffmpeg -v error -nostdin -y -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=0.5" -ac 2 "$seeds/stereo.wav"
ffmpeg -v error -nostdin -y -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.5" "$seeds/mono.wav"
for input in stereo mono; do
  for bits in 8 16; do
    for format in dat json; do
      .build/debug/decibar peaks "$seeds/$input.wav" -o "$seeds/overview/$input-$bits.$format" --bits "$bits" --samples-per-pixel 512
    done
  done
done
# The decoder's first byte picks the name's extension, in the order of Fuzz/Decoder/main.swift.
index=0
for extension in wav flac mp3 ogg opus m4a aac aiff caf mp4 mkv wv; do
  case "$extension" in
    aac) options=(-c:a aac -f adts) ;;
    ogg) options=(-c:a libvorbis) ;;
    mp4) options=(-c:a aac) ;;
    mkv) options=(-c:a flac) ;;
    *) options=() ;;
  esac
  if ffmpeg -v error -nostdin -y -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=0.2" -ac 2 "${options[@]}" \
       "$seeds/seed.$extension" 2>/dev/null; then
    { printf "\\$(printf '%03o' "$index")"; cat "$seeds/seed.$extension"; } > "$seeds/decoder/$extension"
  fi
  index=$((index + 1))
done

status=0
run() {
  local target=$1 corpus=$2 seedDir=$3; shift 3
  echo "fuzz: $target for $seconds s"
  local log="$work/$target.log"
  if ! ".build-fuzz/debug/$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
       -artifact_prefix="$work/$target-" "$@" "$corpus" "$seedDir" > "$log" 2>&1; then
    status=1
    echo "fuzz: $target FAILED; reproducers: $(ls "$work/$target-"* 2>/dev/null | tr '\n' ' ')"
    grep -m 20 -E "ERROR|SUMMARY|Fatal|panic|==[0-9]+==" "$log" || tail -20 "$log"
  fi
  if grep -q "Is the code instrumented for coverage" "$log" || ! grep -q "^INFO: Loaded 1 modules" "$log"; then
    status=1
    echo "fuzz: $target ran without coverage feedback"
  fi
  # A run that adds nothing to the corpus has explored nothing beyond its seeds.
  if ! grep -qE "^stat::new_units_added: +[1-9]" "$log"; then
    status=1
    echo "fuzz: $target added no new inputs to its corpus"
  fi
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" "$log" | sed "s/^/  $target /"
  # libFuzzer's last status line: cov (edges reached), ft (features), corp (corpus entries/bytes).
  grep -E "^#[0-9]+[[:space:]]+DONE" "$log" | tail -1 | sed "s/^/  $target /"
  echo "  $target corpus: $(ls "$corpus" | wc -l) inputs; instrumented: $(grep -m1 -o "[0-9]* inline 8-bit counters" "$log" || echo none)"
}
for target in "${targets[@]}"; do
  case "$target" in
    FuzzOverviewReader) run FuzzOverviewReader "$work/overview" "$seeds/overview" -dict=Fuzz/overview.dict ;;
    FuzzDecoder) run FuzzDecoder "$work/decoder" "$seeds/decoder" ;;
    FuzzControlLine) run FuzzControlLine "$work/control" "$seeds/control" -dict=Fuzz/control.dict ;;
    *) echo "fuzz: no target $target" >&2; status=2 ;;
  esac
done
exit "$status"
