#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/, with AddressSanitizer) and runs each for SECONDS (default 600):
# FuzzOverviewReader (audiowaveform .dat and JSON readers), FuzzDecoder (opening and decoding a
# file from its bytes), FuzzControlLine (the daemon's control lines: splitting and parsing),
# FuzzCaptions (SubRip, WebVTT and LRC files, and showing and wrapping what they hold) and
# FuzzMilkPreset (Milkdrop presets: the check that guards libprojectM, then loading and drawing
# them offscreen). Seeds are made here: overviews written by decibar itself, a short file in every
# format the decoder reads, a caption file of each kind, and presets (a few written here and, when
# projectm-data is installed, a handful of its own, copied from there for the run). Corpora and
# crash reproducers stay in .build-fuzz/work.
# Usage: fuzz.sh [SECONDS [TARGET...]]   (all targets by default)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("${@:-FuzzOverviewReader FuzzDecoder FuzzControlLine FuzzCaptions FuzzMilkPreset}")
targets=(${targets[*]})
for target in "${targets[@]}"; do
  case "$target" in
    FuzzOverviewReader | FuzzDecoder | FuzzControlLine | FuzzCaptions | FuzzMilkPreset) ;;
    *) echo "fuzz: no target $target" >&2; exit 2 ;;
  esac
done
work=.build-fuzz/work
mkdir -p "$work"

swift build --product decibar
for target in "${targets[@]}"; do
  # One -sanitize=fuzzer,address for the compiler: the Swift driver keeps only the last -sanitize=
  # it is given, and `--sanitize=fuzzer --sanitize=address` hands it two in no fixed order, so a
  # build got either coverage (and no AddressSanitizer) or AddressSanitizer (and no coverage: the
  # fuzzer then ran blind). --sanitize=fuzzer stays for what SwiftPM does around it (the fuzz
  # targets' entry point is libFuzzer's main). lld: with the default gold linker the coverage
  # counters' section bounds are lost.
  DECIBAR_FUZZ=1 swift build --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
    -Xswiftc -use-ld=lld --product "$target"
done
# FuzzMilkPreset opens the Milkdrop plug-in beside it: built here by the toolchain's clang++ with
# AddressSanitizer and coverage (fuzzer-no-link: libFuzzer is the binary's), so its glue around
# libprojectM is covered too. libprojectM itself is Debian's binary, uninstrumented: the fuzzer
# learns what it did only from what Decibar sees of it (Fuzz/MilkPreset/main.swift), and
# AddressSanitizer sees into it only at the functions it intercepts (malloc and free, memcpy,
# memcmp: a double free, a copy or comparison past a block) and when it crashes.
if [[ " ${targets[*]} " == *" FuzzMilkPreset "* ]]; then
  MILKDROP_CXX="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang++" MILKDROP_CXXFLAGS="-fsanitize=fuzzer-no-link,address" \
    Scripts/build-milkdrop.sh .build-fuzz/debug debug
fi

# Seeds.
seeds=$(mktemp -d /tmp/decibar-fuzz-seeds.XXXXXX)
trap 'rm -rf "$seeds"' EXIT
mkdir -p "$seeds/overview" "$seeds/decoder" "$seeds/control" "$seeds/captions" "$seeds/milk" \
  "$work/overview" "$work/decoder" "$work/control" "$work/captions" "$work/milk"
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
# Captions: the first byte picks the format, in the order of CaptionTrack.Format (srt, vtt, lrc).
printf '\x00\xef\xbb\xbf1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> there &amp; <font color="red">you</font>\r\n\r\n'\
'2\r\n00:00:02,000 --> 00:00:04,000\r\n{\\an8}Two\r\nlines\r\n' > "$seeds/captions/srt"
printf '\x01WEBVTT - a talk\n\nSTYLE\n::cue { color: yellow }\n\nNOTE made\nby hand\n\nintro\n'\
'00:01.000 --> 00:04.000 align:center line:90%% position:10%%\n<v Ann>Welcome <00:02.000>to <c.loud>the</c> <00:03.000>show\n\n'\
'01:00:00.000 --> 01:00:01.500\n&lt;late&gt;\n' > "$seeds/captions/vtt"
printf '\x02[ti:Night Drive]\n[ar:The Examples]\n[offset:+500]\n[00:10.00]First <00:11.00>line <00:12.50>here\n'\
'[00:15.00][00:30.00]Chorus\n[00:20.00]\n[00:25.00] <00:25.50>Third <00:26.00>w\xc3\xb6rd\n' > "$seeds/captions/lrc"
# Presets: one color with per-frame code; per-vertex code with warp and comp shaders; a custom wave
# and shape; and a handful of projectm-data's, spread over its packs.
still='[preset00]\nfGammaAdj=1\nfDecay=1\nfVideoEchoAlpha=0\nnWaveMode=0\nzoom=1\nrot=0\nwarp=0\nwave_a=0\nob_size=0.5\nob_a=1\nib_size=0\n'
printf "$still"'per_frame_1=ob_r=int(time)/16;\nper_frame_2=ob_g=time-int(time);\nper_frame_3=ob_b=bass_att*0.5;\n' > "$seeds/milk/color.milk"
printf 'MILKDROP_PRESET_VERSION=201\nPSVERSION=2\nPSVERSION_WARP=2\nPSVERSION_COMP=2\n'"$still"\
'per_frame_init_1=q1=rand(100)/100;\nper_frame_1=rot=0.01*sin(time)+q1*0.001;\nper_pixel_1=zoom=1+0.05*rad*sin(ang*3+time);\n'\
'per_pixel_2=dx=above(x,0.5)*0.01;\nwarp_1=`shader_body\nwarp_2=`{\nwarp_3=`    ret = tex2D(sampler_main, uv).xyz * 0.98;\nwarp_4=`}\n'\
'comp_1=`shader_body\ncomp_2=`{\ncomp_3=`    ret = tex2D(sampler_main, uv).xyz + 0.1*tex2D(sampler_noise_lq, uv*2).xyz;\ncomp_4=`}\n' \
  > "$seeds/milk/shaders.milk"
printf "$still"'wavecode_0_enabled=1\nwavecode_0_samples=64\nwavecode_0_bSpectrum=1\nwave_0_init1=t1=0;\n'\
'wave_0_per_frame1=t1=t1+0.01;\nwave_0_per_point1=x=sample;\nwave_0_per_point2=y=0.5+value1*0.3;\n'\
'shapecode_0_enabled=1\nshapecode_0_sides=5\nshapecode_0_num_inst=3\nshapecode_0_rad=0.2\nshape_0_init1=t2=1;\n'\
'shape_0_per_frame1=x=0.2+instance*0.3;\nshape_0_per_frame2=ang=time+t2;\n' > "$seeds/milk/custom.milk"
if [ -d /usr/share/projectM/presets ]; then
  find /usr/share/projectM/presets -name '*.milk' -size -8k | LC_ALL=C sort | awk 'NR % 150 == 1' | head -n 8 \
    | while IFS= read -r preset; do cp "$preset" "$seeds/milk/installed-$(basename "$preset" | tr -c 'A-Za-z0-9.\n-' _)"; done
fi

status=0
run() {
  local target=$1 corpus=$2 seedDir=$3; shift 3
  echo "fuzz: $target for $seconds s"
  local log="$work/$target.log"
  # Without Swift's backtracer a failed precondition is reported by libFuzzer and AddressSanitizer
  # (the backtracer's reading of the stack is itself an AddressSanitizer report, hiding the first).
  if ! SWIFT_BACKTRACE=enable=no ".build-fuzz/debug/$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
       -artifact_prefix="$work/$target-" "$@" "$corpus" "$seedDir" > "$log" 2>&1; then
    status=1
    echo "fuzz: $target FAILED; reproducers: $(ls "$work/$target-"* 2>/dev/null | tr '\n' ' ')"
    grep -m 20 -E "ERROR|SUMMARY|Fatal|panic|==[0-9]+==" "$log" || tail -20 "$log"
  fi
  # One module of counters (the binary); FuzzMilkPreset's plug-in is a second.
  if grep -q "Is the code instrumented for coverage" "$log" || ! grep -qE "^INFO: Loaded [1-9][0-9]* modules" "$log"; then
    status=1
    echo "fuzz: $target ran without coverage feedback"
  fi
  # A run that adds nothing to the corpus has explored nothing beyond its seeds.
  if ! grep -qE "^stat::new_units_added: +[1-9]" "$log"; then
    status=1
    echo "fuzz: $target added no new inputs to its corpus"
  fi
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" "$log" | sed "s/^/  $target /"
  # libFuzzer's status lines after the seeds and at the end: cov (edges reached), ft (features),
  # corp (corpus entries/bytes).
  grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)" "$log" | sed "s/^/  $target /"
  echo "  $target corpus: $(ls "$corpus" | wc -l) inputs; instrumented: $(grep -m1 -o "[0-9]* inline 8-bit counters" "$log" || echo none)"
}
for target in "${targets[@]}"; do
  case "$target" in
    FuzzOverviewReader) run FuzzOverviewReader "$work/overview" "$seeds/overview" -dict=Fuzz/overview.dict ;;
    FuzzDecoder) run FuzzDecoder "$work/decoder" "$seeds/decoder" ;;
    FuzzControlLine) run FuzzControlLine "$work/control" "$seeds/control" -dict=Fuzz/control.dict ;;
    FuzzCaptions) run FuzzCaptions "$work/captions" "$seeds/captions" -dict=Fuzz/captions.dict ;;
    # Leaks are looked for at exit only: libprojectM and Mesa keep allocating across presets, so
    # after nearly every input libFuzzer would scan the whole heap (a third of the speed). The
    # preset file it writes is in TMPDIR, here removed with the seeds even after a crash.
    FuzzMilkPreset) TMPDIR="$seeds" LSAN_OPTIONS="suppressions=$PWD/Fuzz/milk.lsan.supp" \
      run FuzzMilkPreset "$work/milk" "$seeds/milk" -dict=Fuzz/milk.dict -detect_leaks=0 ;;
    *) echo "fuzz: no target $target" >&2; status=2 ;;
  esac
done
exit "$status"
