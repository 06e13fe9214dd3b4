#!/usr/bin/env bash
# The daemon's endurance test. `decibar daemon --window shown --size 1280x720` runs for
# SOAK_MINUTES (30) on a private PulseAudio (null sinks "viz" and "viz2"), Xvfb and nginx on
# loopback, playing a looped playlist of two generated songs (FLAC, WAV), a song streamed over HTTP
# (MP3) and a short H.264 video, with one `levels` subscriber at 30 Hz on the control socket.
# Meanwhile:
#   - every SOAK_SWITCH_SECONDS (60) the default sink switches between the two null sinks, and the
#     status must show the tap capturing the new sink's monitor within SOAK_FOLLOW_SECONDS (5);
#   - every SOAK_RESTART_SECONDS (300) PulseAudio is stopped and started again on the same socket
#     (the second sink re-created, the default sink put back), and within SOAK_RECONNECT_SECONDS
#     (10) the tap must capture again and the player play on (state playing, position advancing);
#     a player that does not is sent `next` once the restart is judged, so the rest still plays;
#   - every SOAK_SAMPLE_SECONDS (30) the daemon is sampled: RSS (VmRSS, and its anonymous and file
#     parts), open fds, threads, the player's underruns, dropouts and late video frames (summed over
#     tracks: the status counts them per track), and the subscriber's lines in the interval.
# The status has no count of buffers the tap dropped (the tap keeps one, but only `decibar levels
# --standalone` reports it, on stderr), so the soak cannot record it.
# Each track plays 5 s before the clock starts (first-use costs are not growth).
# Written to SOAK_OUT (out/soak): soak.csv (one row per sample, seconds since the start first),
# events.csv (each switch and restart: followed or not, and how fast), subscriber.csv (lines per
# second), daemon.log, summary.txt and soak.png (Scripts/soak-plot.py).
# It passes (exit 0) when, over the second half:
#   - RSS grows less than SOAK_RSS_MIB (2) MiB by the fitted slope over the half's duration, fitted
#     to the samples not taken while the video plays (its picture queue is a bump, not growth; the
#     raw last-minus-middle difference is reported beside it);
#   - fds and threads stay flat: per track (the video's decoder adds threads, so only samples taken
#     on the same track are compared) max - min <= SOAK_FD_TOLERANCE / SOAK_THREAD_TOLERANCE (2),
#     and the last sample is no higher than the first half's maximum on that track;
# and over the whole run every interval not touching a restart brought at least SOAK_LINES_PERCENT
# (95) % of 30 lines a second, every switch and restart was followed, the daemon lived to the end
# and SIGTERM stopped it with status 0. Otherwise it names each failed bound in one line, exits 1.
# Runs under 10 minutes scale the cadences (sample every 10 s, switch every 20 s, restart every
# 60 s) unless they are set. Nothing is needed from the environment (no DISPLAY, PULSE_SERVER or
# session bus); every server it starts is stopped on exit.
# Usage: soak.sh [DECIBAR_BINARY]   (default .build-release/release/decibar; SOAK_MINUTES=2 for a
# short run)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
decibar=${1:-$root/.build-release/release/decibar}
minutes=${SOAK_MINUTES:-30}
out=${SOAK_OUT:-$root/out/soak}
number() { [[ $2 =~ ^[0-9]+([.][0-9]+)?$ ]] && awk -v v="$2" 'BEGIN { exit !(v > 0) }' ||
  { echo "soak: $1 must be a positive number, not '$2'" >&2; exit 2; }; }
number SOAK_MINUTES "$minutes"
duration=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 + 0.5 }')
if [ "$duration" -lt 60 ]; then echo "soak: SOAK_MINUTES must be at least 1" >&2; exit 2; fi
# A short run still has to switch, restart and sample several times.
if [ "$duration" -lt 600 ]; then cadence=(10 20 60); else cadence=(30 60 300); fi
sample=${SOAK_SAMPLE_SECONDS:-${cadence[0]}}
switch=${SOAK_SWITCH_SECONDS:-${cadence[1]}}
restart=${SOAK_RESTART_SECONDS:-${cadence[2]}}
follow=${SOAK_FOLLOW_SECONDS:-5}
reconnect=${SOAK_RECONNECT_SECONDS:-10}
rss_mib=${SOAK_RSS_MIB:-2}
fd_tolerance=${SOAK_FD_TOLERANCE:-2}
thread_tolerance=${SOAK_THREAD_TOLERANCE:-2}
lines_percent=${SOAK_LINES_PERCENT:-95}
number SOAK_SAMPLE_SECONDS "$sample"; number SOAK_SWITCH_SECONDS "$switch"; number SOAK_RESTART_SECONDS "$restart"
number SOAK_FOLLOW_SECONDS "$follow"; number SOAK_RECONNECT_SECONDS "$reconnect"
number SOAK_RSS_MIB "$rss_mib"; number SOAK_LINES_PERCENT "$lines_percent"
for name in fd_tolerance thread_tolerance; do
  [[ ${!name} =~ ^[0-9]+$ ]] || { echo "soak: SOAK_${name^^} must be a whole number, not '${!name}'" >&2; exit 2; }
done
[[ $sample =~ ^[0-9]+$ ]] || { echo "soak: SOAK_SAMPLE_SECONDS must be whole seconds, not '$sample'" >&2; exit 2; }

command -v nginx >/dev/null || PATH=$PATH:/usr/sbin
for tool in pulseaudio pactl Xvfb nginx ffmpeg python3; do
  command -v "$tool" >/dev/null || { echo "soak: $tool not found (Scripts/install-deps.sh installs it)" >&2; exit 1; }
done
# The plot needs matplotlib: apt installs it for the system's python3, which another python3
# earlier on the PATH (a pyenv or venv one) may not see.
plot_python=""
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import matplotlib' 2>/dev/null; then plot_python=$candidate; break; fi
done
[ -n "$plot_python" ] || { echo "soak: python3-matplotlib not found (Scripts/install-deps.sh installs it)" >&2; exit 1; }
[ -x "$decibar" ] || { echo "soak: no decibar binary at $decibar (swift build -c release --product decibar)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/{soak.csv,events.csv,subscriber.csv,run.json,summary.txt,soak.png,daemon.log}

. "$here/rig.sh"
# Nothing of the caller's desktop: the daemon must not draw on a Wayland session or publish
# itself on the caller's session bus.
unset DBUS_SESSION_BUS_ADDRESS WAYLAND_DISPLAY
rig_start soak
soak_stop() {
  [ -n "$dir" ] && "$here/nginx-stop.sh" "$dir/web"
  rig_stop
}
trap soak_stop EXIT
# A copy: the binary may be rebuilt while the soak runs.
cp "$decibar" "$dir/decibar"
second_sink=(module-null-sink sink_name=viz2 sink_properties=device.description=soak-second
  rate=48000 channels=2 format=float32le norewinds=1)
pactl load-module "${second_sink[@]}" >/dev/null
# The daemon's own folders, apart from the sound server's.
export XDG_CONFIG_HOME="$dir/config" XDG_CACHE_HOME="$dir/cache" XDG_RUNTIME_DIR="$dir/run"
mkdir -p "$XDG_RUNTIME_DIR" "$dir/media"
chmod 700 "$XDG_RUNTIME_DIR"
socket="$XDG_RUNTIME_DIR/decibar/control.sock"

echo "soak: making the playlist"
media="$dir/media"
"$here/make-music.sh" "$media/a.wav" 0 -14 & a=$!
"$here/make-music.sh" "$media/b.wav" 2 -18 & b=$!
wait "$a"; wait "$b"
"$here/make-music.sh" "$media/c.wav" 1 -12
port=$("$here/nginx-start.sh" "$dir/web")
ffmpeg -v error -nostdin -y -i "$media/a.wav" -t 45 -sample_fmt s16 "$media/song-a.flac"
ffmpeg -v error -nostdin -y -i "$media/b.wav" -c:a pcm_s16le "$media/song-b.wav"
ffmpeg -v error -nostdin -y -i "$media/c.wav" -t 40 -c:a libmp3lame -b:a 192k "$dir/web/www/song-c.mp3"
ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=640x360:rate=30:duration=20" -ss 16 -t 20 -i "$media/c.wav" \
  -map 0:v -map 1:a -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -b:a 128k -shortest "$media/clip.mp4"
rm -f "$media"/{a,b,c}.wav
playlist=("$media/song-a.flac" "http://127.0.0.1:$port/song-c.mp3" "$media/clip.mp4" "$media/song-b.wav")

"$dir/decibar" daemon --window shown --size 1280x720 </dev/null >/dev/null 2>"$out/daemon.log" &
daemon_pid=$!
pids+=("$daemon_pid")
for _ in $(seq 200); do
  [ -S "$socket" ] && break
  kill -0 "$daemon_pid" 2>/dev/null || { echo "soak: the daemon exited at start: $(tail -n 1 "$out/daemon.log")" >&2; exit 1; }
  sleep 0.05
done
[ -S "$socket" ] || { echo "soak: the daemon did not listen on $socket within 10 s" >&2; exit 1; }

# The subscriber: counts the level lines it receives in each second of CLOCK_MONOTONIC (a row
# "second,lines,audible,events_dropped" for the second ending there), so the sampler can add up
# any interval on whole seconds. Audible lines have a peak above -50 dBFS: the player is heard.
python3 - "$socket" "$dir/lines.csv" <<'PY' &
import json, math, select, socket, sys, time
path, out = sys.argv[1], sys.argv[2]
log = open(out, "a", buffering=1)
connection, buffer, failed = None, b"", False
counts = [0, 0, 0]
boundary = math.floor(time.monotonic()) + 1
while True:
    if connection is None:
        try:
            connection = socket.socket(socket.AF_UNIX)
            connection.settimeout(2)
            connection.connect(path)
            connection.sendall(b'{"command": ["subscribe", "levels", 30], "request_id": 1}\n')
            connection.setblocking(False)
            buffer, failed = b"", False
        except OSError as error:
            if not failed: print(f"soak: subscriber: cannot connect: {error}", file=sys.stderr)
            failed = True
            connection.close()
            connection = None
    wait = max(0.0, boundary - time.monotonic())
    ready = select.select([connection], [], [], wait)[0] if connection else (time.sleep(wait) or [])
    if ready:
        try:
            data = connection.recv(1 << 16)
        except OSError:
            data = b""
        if not data:
            print("soak: subscriber: the daemon closed the connection", file=sys.stderr)
            connection.close()
            connection, failed = None, True
        buffer += data
        lines = buffer.split(b"\n")
        buffer = lines.pop()
        for line in lines:
            if line.startswith(b'{"event":"levels"'):
                counts[0] += 1
                try:
                    if max(json.loads(line)["data"]["peak_db"]) > -50: counts[1] += 1
                except (ValueError, KeyError, TypeError):
                    pass
            elif line.startswith(b'{"event":"events-dropped"'):
                counts[2] += json.loads(line).get("count", 0)
    while time.monotonic() >= boundary:
        log.write(f"{boundary},{counts[0]},{counts[1]},{counts[2]}\n")
        counts = [0, 0, 0]
        boundary += 1
PY
pids+=("$!")

cat > "$out/run.json" <<JSON
{"duration": $duration, "sample": $sample, "switch": $switch, "restart": $restart, "follow": $follow,
 "reconnect": $reconnect, "rate": 30, "rss_mib": $rss_mib, "fd_tolerance": $fd_tolerance,
 "thread_tolerance": $thread_tolerance, "lines_percent": $lines_percent, "restart_grace": 1, "video_track": 2,
 "date": "$(date -u +%FT%TZ)", "cores": $(nproc)}
JSON
echo "soak: $duration s: sample every $sample s, switch every $switch s, restart every $restart s; output in $out"

# The run itself: samples on the main thread, switches and restarts on another, so a slow restart
# never delays a sample. Bounded by timeout in case anything in it blocks.
status=0
timeout --foreground $((duration + 300)) python3 - "$socket" "$daemon_pid" "$out" "$dir" "$here" "${playlist[@]}" <<'PY' || status=$?
import csv, json, math, os, socket, subprocess, sys, threading, time
sock_path, pid, out, scratch, scripts = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
playlist = sys.argv[6:]
run = json.load(open(os.path.join(out, "run.json")))
duration, rate = run["duration"], run["rate"]
pa_dir = os.path.join(scratch, "pa")
lines_path = os.path.join(scratch, "lines.csv")
second_sink = ["module-null-sink", "sink_name=viz2", "sink_properties=device.description=soak-second",
               "rate=48000", "channels=2", "format=float32le", "norewinds=1"]
stop = threading.Event()

def fail(message):
    print(f"soak: {message}", file=sys.stderr)
    sys.exit(1)

class Control:
    """One connection to the control socket; a reply is matched by its request_id."""
    def __init__(self):
        self.connection, self.buffer, self.id = None, b"", 0

    def request(self, words, timeout=3.0):
        deadline = time.monotonic() + timeout
        try:
            if self.connection is None:
                self.connection = socket.socket(socket.AF_UNIX)
                self.connection.settimeout(timeout)
                self.connection.connect(sock_path)
                self.buffer = b""
            self.id += 1
            self.connection.sendall((json.dumps({"command": words, "request_id": self.id}) + "\n").encode())
            while True:
                while b"\n" in self.buffer:
                    line, self.buffer = self.buffer.split(b"\n", 1)
                    message = json.loads(line)
                    if message.get("request_id") == self.id:
                        return message
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                self.connection.settimeout(left)
                data = self.connection.recv(1 << 16)
                if not data:
                    raise ConnectionError
                self.buffer += data
        except (OSError, ValueError):
            if self.connection:
                self.connection.close()
            self.connection = None
            return None

    def status(self):
        reply = self.request(["get_status"])
        return reply.get("data") if reply and reply.get("error") == "success" else None

def alive():
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False

def command(args, timeout=15):
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        return done.returncode, (done.stdout + done.stderr).strip()
    except subprocess.TimeoutExpired:
        return 124, f"{os.path.basename(args[0])} timed out after {timeout} s"

def monitors():
    """Each source's name and description: the status names a device by its description."""
    code, text = command(["pactl", "list", "sources"])
    names, name = {}, None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("Name: "): name = line[6:]
        elif line.startswith("Description: ") and name: names[name] = line[13:]
    return names

def tap_on(status, sink, names):
    tap = (status or {}).get("tap", {})
    return tap.get("state") == "capturing" and tap.get("device") in (f"{sink}.monitor", names.get(f"{sink}.monitor"))

def stream_sink():
    """The sink the player's stream is on, for the events' detail."""
    code, sinks = command(["pactl", "list", "short", "sinks"], 5)
    code, inputs = command(["pactl", "list", "short", "sink-inputs"], 5)
    by_index = {line.split("\t")[0]: line.split("\t")[1] for line in sinks.splitlines() if "\t" in line}
    on = [by_index.get(line.split("\t")[1], "?") for line in inputs.splitlines() if "\t" in line]
    return ",".join(on) or "none"

# Set up the playlist, and wait until the tap, the player and the subscriber are all going.
control = Control()
for _ in range(50):
    if control.status(): break
    time.sleep(0.1)
else:
    fail("the daemon does not answer on its socket")
reply = control.request(["open", playlist], timeout=15)
if not reply or reply.get("error") != "success":
    fail(f"open failed: {(reply or {}).get('message', 'no answer')}")
reply = control.request(["set", "loop", "playlist"])
if not reply or reply.get("error") != "success":
    fail(f"set loop playlist failed: {(reply or {}).get('message', 'no answer')}")

# Warm-up: each track plays a few seconds before the clock starts, so what a track costs the first
# time (the video's pipeline, the stream's download, each decoder) is paid before the first sample
# and not taken for growth in the judged second half of a short run.
for index in range(len(playlist)):
    deadline = time.monotonic() + 30
    while True:
        player = (control.status() or {}).get("player", {})
        if player.get("index") == index and player.get("state") == "playing" and player.get("position", 0) >= 5:
            break
        if time.monotonic() > deadline:
            fail(f"warm-up: track {index} ({playlist[index]}) did not play 5 s within 30 s: {player.get('state')} "
                 f"at {player.get('position')} s of track {player.get('index')}")
        time.sleep(0.2)
    control.request(["next"])
deadline = time.monotonic() + 10
while (control.status() or {}).get("player", {}).get("index") != 0:
    if time.monotonic() > deadline:
        fail("warm-up: `next` on the last track did not loop to the first")
    time.sleep(0.2)

def subscriber_rows():
    rows = {}
    try:
        for line in open(lines_path):
            second, lines, audible, dropped = (int(v) for v in line.split(","))
            rows[second] = (lines, audible, dropped)
    except (OSError, ValueError):
        pass
    return rows

deadline = time.monotonic() + 30
while True:
    status = control.status() or {}
    rows = subscriber_rows()
    last = rows.get(max(rows)) if rows else None
    if (status.get("player", {}).get("state") == "playing" and status.get("tap", {}).get("state") == "capturing"
            and status.get("player", {}).get("loop") == "playlist" and last and last[0] >= 0.9 * rate):
        break
    if time.monotonic() > deadline:
        fail(f"not playing within 30 s: player {status.get('player', {}).get('state')}, tap "
             f"{status.get('tap', {}).get('state')}, subscriber {last[0] if last else 0} lines a second")
    time.sleep(0.2)
t0 = math.floor(time.monotonic()) + 1
while time.monotonic() < t0: time.sleep(0.01)
def now(): return time.monotonic() - t0
run["t0"] = t0

# Switches and restarts, on their own thread.
events_file = open(os.path.join(out, "events.csv"), "w", newline="")
events = csv.writer(events_file)
events.writerow(["seconds", "kind", "sink", "followed", "follow_seconds", "end_seconds", "detail"])
events_file.flush()
def record(start, kind, sink, followed, follow_seconds, detail):
    events.writerow([f"{start:.2f}", kind, sink, "yes" if followed else "no",
                     "" if follow_seconds is None else f"{follow_seconds:.2f}", f"{now():.2f}", detail])
    events_file.flush()
    print(f"soak: {start:5.0f} s  {kind} to {sink}: {'followed' if followed else 'NOT followed'}"
          f"{'' if follow_seconds is None else f' in {follow_seconds:.2f} s'}; {detail}", flush=True)

def do_switch(ctl, target, names):
    start = now()
    code, text = command(["pactl", "set-default-sink", target], 10)
    if code:
        return record(start, "switch", target, False, None, f"pactl set-default-sink: {text}")
    began, status = time.monotonic(), None
    while time.monotonic() - began < run["follow"]:
        status = ctl.status()
        if tap_on(status, target, names):
            return record(start, "switch", target, True, time.monotonic() - began,
                          f"player {status['player'].get('state')}, its stream on {stream_sink()}")
        time.sleep(0.05)
    tap = (status or {}).get("tap", {})
    record(start, "switch", target, False, None,
           f"tap {tap.get('state', 'no answer')} on {tap.get('device', tap.get('reason', '-'))} after {run['follow']} s")

def do_restart(ctl, names):
    start = now()
    code, sink = command(["pactl", "get-default-sink"], 10)
    sink = sink if code == 0 and sink else "viz"
    code, text = command([os.path.join(scripts, "pulse-stop.sh"), pa_dir])
    down = now()
    code, text = command([os.path.join(scripts, "pulse-start.sh"), pa_dir, "viz"], 30)
    if code:
        return record(start, "restart", sink, False, None, f"pulse-start: {text}")
    for args in (["load-module", *second_sink], ["set-default-sink", sink]):
        code, text = command(["pactl", *args], 10)
        if code:
            return record(start, "restart", sink, False, None, f"pactl {args[0]}: {text}")
    names.update(monitors())
    # The player plays on when its position moves half a second past where it was when the
    # server came back (or it moved on to the next track).
    back, began = now(), time.monotonic()
    tap_seconds = player_seconds = None
    first = status = None
    while time.monotonic() - began < run["reconnect"]:
        status = ctl.status()
        if status:
            player = status.get("player", {})
            if tap_seconds is None and tap_on(status, sink, names):
                tap_seconds = time.monotonic() - began
            if first is None:
                first = player
            elif player_seconds is None and player.get("state") == "playing" and (
                    player.get("index") != first.get("index")
                    or player.get("position", 0) >= first.get("position", 0) + 0.5):
                player_seconds = time.monotonic() - began
        if tap_seconds is not None and player_seconds is not None:
            break
        time.sleep(0.1)
    player = (status or {}).get("player", {})
    parts = [f"server down {back - down:.2f} s"]
    if tap_seconds is not None:
        parts.append(f"tap back in {tap_seconds:.2f} s")
    else:
        tap = (status or {}).get("tap", {})
        parts.append(f"tap {tap.get('state', 'no answer')} on {tap.get('device', tap.get('reason', '-'))}")
    if player_seconds is not None:
        parts.append(f"player playing in {player_seconds:.2f} s")
    else:
        parts.append(f"player {player.get('state')} at {player.get('position')} s of track {player.get('index')} "
                     f"(was {(first or {}).get('position')} s), its stream on {stream_sink()}")
    if player_seconds is None and ctl.request(["next"]):
        # Judged already; the rest of the run should still play (the bug is reported once, not
        # hidden behind a silent half hour).
        began, first = time.monotonic(), None
        while time.monotonic() - began < 5:
            player = (ctl.status() or {}).get("player", {})
            if first is None: first = player
            elif player.get("state") == "playing" and player.get("position", 0) >= first.get("position", 0) + 0.5:
                parts.append("`next` made it play again"); break
            time.sleep(0.1)
        else:
            parts.append("`next` did not make it play again")
    followed = tap_seconds is not None and player_seconds is not None
    record(start, "restart", sink, followed, max(tap_seconds, player_seconds) if followed else None, "; ".join(parts))

def schedule():
    margin = max(run["follow"], run["reconnect"]) + 2
    plan = []
    t = run["restart"]
    while t <= duration - margin:
        plan.append((t, "restart")); t += run["restart"]
    restarts = {round(t, 3) for t, _ in plan}
    t = run["switch"]
    while t <= duration - margin:
        if round(t, 3) not in restarts: plan.append((t, "switch"))
        t += run["switch"]
    return sorted(plan)

def eventer():
    ctl, names, sink = Control(), monitors(), "viz"
    for due, kind in schedule():
        while now() < due:
            if stop.wait(min(0.2, max(0.0, due - now()))): return
        if kind == "switch":
            sink = "viz2" if sink == "viz" else "viz"
            do_switch(ctl, sink, names)
        else:
            do_restart(ctl, names)
run["planned"] = {kind: sum(1 for _, k in schedule() if k == kind) for kind in ("switch", "restart")}
json.dump(run, open(os.path.join(out, "run.json"), "w"), indent=1)
thread = threading.Thread(target=eventer, daemon=True)
thread.start()

# Per-track counters summed over the run: a new track (another index, or a count that fell)
# banks the previous track's last counts.
class Counters:
    keys = ("underruns", "dropouts", "video_dropped")
    def __init__(self):
        self.base = dict.fromkeys(self.keys, 0); self.last = dict.fromkeys(self.keys, 0); self.track = None
    def update(self, status):
        player = (status or {}).get("player", {})
        if "underruns" not in player: return
        current = {"underruns": player["underruns"], "dropouts": player["dropouts"],
                   "video_dropped": player.get("video", {}).get("dropped", 0)}
        track = (player.get("index"), player.get("file"))
        if track != self.track or any(current[k] < self.last[k] for k in self.keys):
            for k in self.keys: self.base[k] += self.last[k]
        self.last, self.track = current, track
    def totals(self): return {k: self.base[k] + self.last[k] for k in self.keys}

def proc_sample():
    values = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile"): values[key] = int(value.split()[0])
    return values, len(os.listdir(f"/proc/{pid}/fd")), len(os.listdir(f"/proc/{pid}/task"))

counters = Counters()
soak_file = open(os.path.join(out, "soak.csv"), "w", newline="")
soak = csv.writer(soak_file)
soak.writerow(["seconds", "rss_kib", "rss_anon_kib", "rss_file_kib", "fds", "threads", "underruns", "dropouts",
               "video_dropped", "lines", "expected_lines", "audible_lines", "events_dropped", "tap", "player",
               "track", "position"])
dropped_total, previous, died = 0, None, None
try:
    for due in list(range(0, duration, run["sample"])) + [duration]:
        while now() < due and alive():
            counters.update(control.status())
            time.sleep(min(1.0, max(0.0, due - now())))
        if not alive():
            died = now(); break
        try:
            memory, fds, threads = proc_sample()
        except (OSError, ValueError):
            died = now(); break
        status = control.status()
        counters.update(status)
        # The subscriber writes the row for a second just after it ends.
        wait_until = time.monotonic() + 2
        rows = subscriber_rows()
        while max(rows, default=0) < t0 + due and time.monotonic() < wait_until:
            time.sleep(0.05); rows = subscriber_rows()
        lines = expected = audible = ""
        if previous is not None:
            span = [rows.get(s, (0, 0, 0)) for s in range(t0 + previous + 1, t0 + due + 1)]
            lines, audible = sum(r[0] for r in span), sum(r[1] for r in span)
            dropped_total += sum(r[2] for r in span)
            expected = rate * (due - previous)
        totals = counters.totals()
        player, tap = (status or {}).get("player", {}), (status or {}).get("tap", {})
        soak.writerow([due, memory.get("VmRSS"), memory.get("RssAnon"), memory.get("RssFile"), fds, threads,
                       totals["underruns"], totals["dropouts"], totals["video_dropped"], lines, expected, audible,
                       dropped_total, tap.get("state", "no answer"), player.get("state", "no answer"),
                       player.get("index", ""), player.get("position", "")])
        soak_file.flush()
        print(f"soak: {due:5d} s  RSS {memory.get('VmRSS', 0) / 1024:6.1f} MiB  fds {fds:3d}  threads {threads:3d}  "
              f"lines {lines if lines != '' else '-':>4}  underruns {totals['underruns']}  dropouts {totals['dropouts']}  "
              f"tap {tap.get('state', 'no answer')}  player {player.get('state', 'no answer')}", flush=True)
        previous = due
finally:
    stop.set()
    thread.join(timeout=run["reconnect"] + 40)
rows = subscriber_rows()
with open(os.path.join(out, "subscriber.csv"), "w") as file:
    file.write("seconds,lines,audible_lines,events_dropped\n")
    for second in sorted(rows):
        if second > t0: file.write(f"{second - t0},{','.join(str(v) for v in rows[second])}\n")
if died is not None:
    json.dump(dict(run, died=round(died, 1)), open(os.path.join(out, "run.json"), "w"), indent=1)
    fail(f"the daemon exited after {died:.0f} s: {open(os.path.join(out, 'daemon.log')).read().strip().splitlines()[-1:]}")
PY

# A clean stop is part of the product: SIGTERM must end it with status 0.
# (It is this shell's child: it stays a zombie, state Z, until waited for.)
gone() { [ "$(awk '{print $3}' "/proc/$daemon_pid/stat" 2>/dev/null || echo Z)" = Z ]; }
kill -TERM "$daemon_pid" 2>/dev/null || true
for _ in $(seq 200); do gone && break; sleep 0.05; done
if gone; then
  exit_status=0; wait "$daemon_pid" || exit_status=$?
else
  exit_status="still running 10 s after SIGTERM"
fi
if [ "$status" -ne 0 ] && [ ! -s "$out/soak.csv" ]; then
  echo "soak: FAIL: the run stopped before its first sample (status $status)" >&2
  exit 1
fi

verdict=0
python3 - "$out" "$status" "$exit_status" <<'PY' | tee "$out/summary.txt" || verdict=$?
import csv, json, os, sys
out, run_status, exit_status = sys.argv[1], int(sys.argv[2]), sys.argv[3]
run = json.load(open(os.path.join(out, "run.json")))
rows = list(csv.DictReader(open(os.path.join(out, "soak.csv"))))
events = list(csv.DictReader(open(os.path.join(out, "events.csv")))) if os.path.exists(os.path.join(out, "events.csv")) else []
duration = run["duration"]
failures, table = [], []
def line(name, value, bound="", ok=None):
    table.append((name, value, bound, "" if ok is None else ("ok" if ok else "FAIL")))
t = [float(r["seconds"]) for r in rows]
mib = [int(r["rss_kib"]) / 1024 for r in rows]
half = duration / 2
second = [i for i, s in enumerate(t) if s >= half]
first = [i for i, s in enumerate(t) if s < half]
completed = bool(rows) and t[-1] >= duration and "died" not in run and run_status == 0
line("samples", f"{len(rows)} over {t[-1] if t else 0:.0f} s of {duration} s", "the whole run", completed)
if not completed:
    failures.append(f"the run did not complete: {'the daemon exited after %s s' % run['died'] if 'died' in run else f'{len(rows)} samples, status {run_status}'}")
# The fit leaves out samples taken while the video plays: its decoder and picture queue hold about
# 11 MiB while it plays and give them back after (a bump, not growth; the other samples show
# whether it came back). Without video samples in the half, all are used.
settled = [i for i in second if str(rows[i]["track"]) != str(run["video_track"])]
if len(settled) >= 3:
    second_fit = settled
else:
    second_fit = second
if len(second) >= 3 and first:
    xs, ys = [t[i] for i in second_fit], [mib[i] for i in second_fit]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    fitted, raw = slope * (xs[-1] - xs[0]), ys[-1] - ys[0]
    line("RSS start / middle / end", f"{mib[0]:.1f} / {ys[0]:.1f} / {ys[-1]:.1f} MiB")
    line("RSS growth, first half", f"{ys[0] - mib[0]:+.2f} MiB")
    line("RSS growth, second half, fitted", f"{fitted:+.2f} MiB ({slope * 3600:+.2f} MiB/h; {len(second_fit)} samples off the video)", f"< {run['rss_mib']} MiB", fitted < run["rss_mib"])
    line("RSS growth, second half, last - middle", f"{raw:+.2f} MiB", "(reported)")
    if fitted >= run["rss_mib"]:
        failures.append(f"RSS grew {fitted:.2f} MiB over the second half (fitted slope {slope * 3600:.2f} MiB/h), bound {run['rss_mib']} MiB")
    # fds and threads, each compared on the same track: the video's decoder has threads of its own.
    for key, tolerance in (("fds", run["fd_tolerance"]), ("threads", run["thread_tolerance"])):
        tracks = sorted({rows[i]["track"] for i in second})
        parts, bad = [], []
        for track in tracks:
            late = [int(rows[i][key]) for i in second if rows[i]["track"] == track]
            early = [int(rows[i][key]) for i in first if rows[i]["track"] == track]
            spread = max(late) - min(late)
            label = f"track {track or '-'}"
            parts.append(f"{label}: {min(late)}..{max(late)}" + (f" (first half max {max(early)})" if early else ""))
            if spread > tolerance:
                bad.append(f"{label} spread {spread} > {tolerance}")
            if early and late[-1] > max(early):
                bad.append(f"{label} last {late[-1]} > first half max {max(early)}")
        everything = [int(rows[i][key]) for i in second]
        line(f"{key}, second half", f"{min(everything)}..{max(everything)}; " + "; ".join(parts),
             f"spread <= {tolerance} per track", not bad)
        if bad:
            failures.append(f"{key} not flat over the second half: {', '.join(bad)}")
else:
    failures.append("too few samples in each half to judge RSS, fds and threads")
# Subscriber lines, skipping intervals that touch a restart.
grace = run["restart_grace"]
windows = [(float(e["seconds"]), float(e["end_seconds"]) + grace) for e in events if e["kind"] == "restart"]
checked = skipped = 0
short, lost, lowest = [], 0, None
for previous, row in zip(rows, rows[1:]):
    if row["lines"] == "": continue
    a, b = float(previous["seconds"]), float(row["seconds"])
    if any(start < b and end > a for start, end in windows):
        skipped += 1; continue
    checked += 1
    lines, expected = int(row["lines"]), int(row["expected_lines"])
    share = 100 * lines / expected
    lowest = share if lowest is None else min(lowest, share)
    lost += max(0, expected - lines)
    if share < run["lines_percent"]:
        short.append(f"{lines} of {expected} in {a:.0f}-{b:.0f} s")
line("subscriber lines per interval", f"{checked} intervals checked ({skipped} touch a restart), lowest {lowest if lowest is not None else 0:.1f} %",
     f">= {run['lines_percent']} % of {run['rate']}/s", not short and checked > 0)
line("subscriber lines short of 30/s outside restarts", f"{lost}")
if short:
    failures.append(f"subscriber lines lost outside restarts: {', '.join(short)}")
elif not checked:
    failures.append("no subscriber interval could be checked")
audible = [int(r["audible_lines"]) / int(r["lines"]) for r in rows if r["lines"] not in ("", "0")]
line("audible share of the lines (player heard)", f"{100 * sum(audible) / max(1, len(audible)):.1f} % mean, lowest {100 * min(audible, default=0):.1f} %", "(reported)")
for kind in ("switch", "restart"):
    these = [e for e in events if e["kind"] == kind]
    missed = [e for e in these if e["followed"] != "yes"]
    planned = run.get("planned", {}).get(kind, 0)
    slowest = max((float(e["follow_seconds"]) for e in these if e["follow_seconds"]), default=None)
    line(f"{kind}es followed" if kind == "switch" else "restarts followed",
         f"{len(these) - len(missed)} of {len(these)}" + (f", slowest {slowest:.2f} s" if slowest is not None else ""),
         f"all {planned} planned", not missed and len(these) == planned)
    for e in missed:
        failures.append(f"{kind} at {float(e['seconds']):.0f} s not followed: {e['detail']}")
    if len(these) != planned:
        failures.append(f"{len(these)} {kind}{'es' if kind == 'switch' else 's'} happened of {planned} planned")
last = rows[-1] if rows else {}
line("underruns / dropouts (summed over tracks)", f"{last.get('underruns', '-')} / {last.get('dropouts', '-')}", "(reported)")
line("late video frames dropped", f"{last.get('video_dropped', '-')}", "(reported)")
line("level events dropped for the subscriber", f"{last.get('events_dropped', '-')}", "(reported)")
line("daemon exit status on SIGTERM", exit_status, "0", exit_status == "0")
if exit_status != "0":
    failures.append(f"the daemon's exit on SIGTERM: {exit_status}")
width = max(len(r[0]) for r in table)
vwidth = min(60, max(len(r[1]) for r in table))
print(f"soak: decibar daemon, {duration} s (window shown 1280x720, 1 levels subscriber at {run['rate']} Hz), "
      f"sample {run['sample']} s, switch {run['switch']} s, restart {run['restart']} s, {run['date']}, {run['cores']} cores")
for name, value, bound, result in table:
    print(f"  {name:<{width}}  {value:<{vwidth}}  {bound:<22} {result}".rstrip())
for failure in failures:
    print(f"soak: FAIL: {failure}")
print("soak: PASS" if not failures else f"soak: FAIL ({len(failures)} bound{'s' if len(failures) > 1 else ''})")
sys.exit(1 if failures else 0)
PY
result=$([ "$verdict" = 0 ] && echo PASS || echo FAIL)
"$plot_python" "$here/soak-plot.py" "$out" --title "decibar daemon soak: $minutes min, window shown 1280x720, 1 levels subscriber at 30 Hz: $result" ||
  echo "soak: the plot could not be made" >&2
echo "soak: figures in $out (soak.csv, events.csv, summary.txt, soak.png)"
exit "$verdict"
