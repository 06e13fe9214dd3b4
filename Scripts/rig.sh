# Sourced by the benchmark scripts: a private PulseAudio (null sink "viz") and, unless told
# otherwise, an Xvfb, both stopped when the script exits, with every PID the script adds to
# `pids` stopped first. After `rig_start PREFIX [--no-display]`, `$dir` is the scratch folder and
# PULSE_SERVER, PULSE_COOKIE, XDG_RUNTIME_DIR (and DISPLAY) are exported. RIG_SERVER=pipewire
# starts a private PipeWire instead (pipewire-start.sh: WirePlumber, pipewire-pulse, the same sink).
rig_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pids=()
dir=""

rig_stop() {
  for pid in "${pids[@]}"; do "$rig_scripts/stop-pid.sh" "$pid" || true; done
  [ -n "$dir" ] || return 0
  [ -d "$dir/pa" ] && { "$rig_scripts/pulse-stop.sh" "$dir/pa" || true; }
  [ -d "$dir/pw" ] && { "$rig_scripts/pipewire-stop.sh" "$dir/pw" || true; }
  [ -d "$dir/x" ] && { "$rig_scripts/xvfb-stop.sh" "$dir/x" || true; }
  rm -rf "$dir"
}

rig_start() {
  # Short path: the PulseAudio socket must fit in 108 bytes.
  dir=$(mktemp -d "/tmp/$1.XXXXXX")
  trap rig_stop EXIT
  trap 'exit 130' INT TERM
  local server=pa start=pulse-start.sh
  [ "${RIG_SERVER:-pulseaudio}" = pipewire ] && server=pw start=pipewire-start.sh
  PULSE_SERVER=$("$rig_scripts/$start" "$dir/$server")
  export PULSE_SERVER PULSE_COOKIE="$dir/$server/cookie" XDG_RUNTIME_DIR="$dir/$server/run"
  if [ "${2:-}" != --no-display ]; then
    DISPLAY=$("$rig_scripts/xvfb-start.sh" "$dir/x")
    export DISPLAY
  fi
}

# Writes the cava 0.7.4 configuration every CPU comparison uses: 64 bars at 60 fps with autosens,
# on the null sink's monitor, raw 16-bit output to /dev/null. Written here rather than read from
# ~/.config, so the comparison does not depend on the machine.
rig_cava_config() {
  cat > "$1" <<'CAVA'
[general]
framerate = 60
bars = 64
autosens = 1
sleep_timer = 0

[input]
method = pulse
source = viz.monitor

[output]
method = raw
raw_target = /dev/null
data_format = binary
bit_format = 16bit
channels = stereo
CAVA
}

# Music-like audio into the null sink for SECONDS: a swelling chord and a hi-hat (its player is
# stopped with the rig).
rig_music() {
  ffmpeg -v error -nostdin -f lavfi -i "aevalsrc=0.3*sin(2*PI*220*t)*(0.6+0.4*sin(2*PI*2*t))+0.2*sin(2*PI*330*t)+0.1*sin(2*PI*6000*t)*lt(sin(2*PI*4*t)\,-0.9):s=48000:d=$1" \
    -ac 2 "$dir/music.wav"
  paplay --device=viz "$dir/music.wav" >/dev/null 2>&1 &
  pids+=("$!")
}

# The CPU time of every thread of process $1, in ns (%.0f: mawk's %d stops at 2^31 ns, 2.1 s of CPU).
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{sum += $1} END {printf "%.0f", sum}'; }
# CLOCK_MONOTONIC seconds, as the frame logs stamp them.
now() { python3 -c 'import time; print(time.clock_gettime(time.CLOCK_MONOTONIC))'; }
