#!/usr/bin/env python3
"""Player figures for `decibar play` and `decibar peaks`, each next to a same-run reference.

1. Overview: `decibar peaks` (decode + min/max pairs at 256 samples, the scrubber's overview) on a
   long FLAC against `ffmpeg -i FILE -f null -` on the same file, alternating, 3 rounds each.
   Speed ratio = ffmpeg time / decibar time (1.0 = as fast as decoding alone). Peak memory is
   ru_maxrss of the decibar process (wait4).
2. Launch to first frame: from just before spawning `decibar play FILE` (empty overview cache) to
   the first --frame-log stamp, which is taken after the first buffer swap. Short and long file.
3. Seek latency: real X pointer events (xdotool) drag and click on the scrubber; from just before
   the `mouseup` is sent to the moment the first samples of the new position are handed to the
   server (the player's --seek-log). The time from the release reaching Decibar's event loop is
   printed as well.

Usage: bench-player.py DECIBAR LONG_FLAC SHORT_FILE WORKDIR   (PULSE_SERVER and DISPLAY set)
"""
import os
import statistics
import subprocess
import sys
import time

decibar, long_file, short_file, work = sys.argv[1:5]


def timed(command, env=None):
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.monotonic() - start
    if process.returncode != 0:
        sys.exit(f"bench-player: {' '.join(command)} failed: {errors.decode(errors='replace').strip()}")
    return elapsed, usage.ru_maxrss / 1024  # MiB


def overview():
    ffmpeg_times, decibar_times, memory = [], [], []
    out = os.path.join(work, "overview.dat")
    for _ in range(3):
        elapsed, _ = timed(["ffmpeg", "-v", "error", "-nostdin", "-i", long_file, "-f", "null", "-"])
        ffmpeg_times.append(elapsed)
        elapsed, rss = timed([decibar, "peaks", long_file, "-o", out])
        decibar_times.append(elapsed)
        memory.append(rss)
    f, d = statistics.median(ffmpeg_times), statistics.median(decibar_times)
    print(f"overview of {os.path.basename(long_file)} ({os.path.getsize(long_file) / 2**20:.0f} MiB):")
    print(f"  ffmpeg -f null (decode only): {' '.join(f'{t:.2f}' for t in ffmpeg_times)} s, median {f:.2f} s")
    print(f"  decibar peaks (decode+peaks): {' '.join(f'{t:.2f}' for t in decibar_times)} s, median {d:.2f} s")
    print(f"  speed ratio ffmpeg/decibar = {f / d:.2f}x   (goal >= 0.9x)")
    print(f"  decibar peak memory (maxrss): {max(memory):.1f} MiB   (goal < 64 MiB)")


def first_frame(path, runs=5):
    # Only Decibar's overview cache is emptied between runs; Mesa keeps its compiled shaders in
    # the same cache folder, as it does on a user's machine after the first start.
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache-first-frame"))
    times = []
    for run in range(runs):
        log = os.path.join(work, f"first-frame-{run}.log")
        subprocess.run(["rm", "-rf", os.path.join(env["XDG_CACHE_HOME"], "decibar")])
        start = time.monotonic()
        process = subprocess.Popen([decibar, "play", path, "--size", "1280x720", "--exit-after", "1",
                                    "--frame-log", log], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        process.wait(timeout=60)
        with open(log) as lines:
            first = float(lines.readline().split()[0])
        times.append((first - start) * 1000)
    return times


def xdotool(*arguments):
    return subprocess.run(["xdotool", *arguments], capture_output=True, text=True, check=True).stdout.strip()


def seek_latency(path, drags=10):
    log = os.path.join(work, "seeks.log")
    width, height = 1280, 720
    process = subprocess.Popen([decibar, "play", path, "--size", f"{width}x{height}", "--seek-log", log],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    window = ""
    deadline = time.monotonic() + 20
    while not window and time.monotonic() < deadline:
        window = subprocess.run(["xdotool", "search", "--pid", str(process.pid), "--classname", "^decibar$"],
                                capture_output=True, text=True).stdout.split("\n")[0]
        time.sleep(0.05)
    if not window:
        process.kill()
        sys.exit("bench-player: the player window did not appear")
    time.sleep(1.0)
    # The scrubber's band (PlayLayout): its vertical middle sits at about 82 % of the height.
    y = int(height * 0.82)
    sent = []
    for index in range(drags * 2):
        x_from = 100 + (index * 97) % (width - 300)
        x_to = x_from + 150
        if index % 2 == 0:
            xdotool("mousemove", "--window", window, str(x_from), str(y), "mousedown", "1")
            time.sleep(0.1)
            xdotool("mousemove", "--window", window, str(x_to), str(y))
            time.sleep(0.1)
        else:
            xdotool("mousemove", "--window", window, str(x_to), str(y), "mousedown", "1")
            time.sleep(0.05)
        sent.append(time.monotonic())
        xdotool("mouseup", "1")
        time.sleep(0.4)
    xdotool("key", "--window", window, "q")
    process.wait(timeout=20)
    with open(log) as lines:
        records = [tuple(map(float, line.split())) for line in lines if line.strip()]
    if len(records) != len(sent):
        print(f"  note: {len(sent)} releases sent, {len(records)} seeks logged")
    # Each logged seek belongs to the last release sent before the event loop handled it.
    from_send = [(written - max(at for at in sent if at <= handled)) * 1000 for handled, written in records]
    from_loop = [(written - handled) * 1000 for handled, written in records]
    return from_send, from_loop


def summary(values):
    ordered = sorted(values)
    return (f"median {statistics.median(ordered):.1f} ms, p90 {ordered[int(len(ordered) * 0.9) - 1]:.1f} ms, "
            f"max {ordered[-1]:.1f} ms (n={len(ordered)})")


if os.environ.get("BENCH_PLAYER_ONLY") != "seek":
    overview()
print("launch to first frame (decibar play, no cached overview; goal < 150 ms):")
print(f"  very first start (Mesa compiles the shaders): {first_frame(short_file, runs=1)[0]:.0f} ms")
for label, path in (("short file", short_file), ("60-minute file", long_file)):
    times = first_frame(path)
    print(f"  {label}: {' '.join(f'{t:.0f}' for t in times)} ms; {summary(times)}")
print("seek latency, mouse release -> first new sample handed to the server (goal < 50 ms):")
from_send, from_loop = seek_latency(long_file)
print(f"  from sending the X release: {summary(from_send)}")
print(f"  from the release reaching the event loop: {summary(from_loop)}")
