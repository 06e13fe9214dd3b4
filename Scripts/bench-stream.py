#!/usr/bin/env python3
"""Streaming figures for `decibar play URL`, each next to a same-run reference.

1. Time to first audio: from just before spawning the player to the first non-silent sample
   recorded from the null sink's monitor, counted in recorded frames (the monitor runs at the
   sink's clock whether anything plays or not, so the figure is in audio time). The file is a
   60 s FLAC that has sound from its first sample. Rows: decibar from disk, decibar over HTTP
   (loopback nginx, full speed and throttled so that the file takes 20 s), and `ffmpeg -i URL -f
   pulse` on the same addresses. Every decibar run starts with empty caches.
2. CPU and memory while playing a 60-minute FLAC for SECONDS: from disk, over HTTP at full
   speed (the download ends within seconds), over HTTP throttled to three times its bit rate
   (downloading the whole time), and ffmpeg playing the throttled address. CPU is the child's
   user+system time over the wall time (wait4); memory is its peak resident size and its resident
   size at the end.

Usage: bench-stream.py DECIBAR SHORT_FLAC HOUR_FLAC BASE_URL WORKDIR SECONDS
(PULSE_SERVER and DISPLAY set; BASE_URL serves both files, and under slow/ throttled.)
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

decibar, short_file, hour_file, base_url, work, seconds = sys.argv[1:7]
seconds = float(seconds)
short_name, hour_name = os.path.basename(short_file), os.path.basename(hour_file)
monitor = os.path.join(work, "monitor.raw")


def fresh_cache():
    cache = os.path.join(work, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    return dict(os.environ, XDG_CACHE_HOME=cache)


def recorded_frames():
    try:
        return os.path.getsize(monitor) // 8
    except OSError:
        return 0


def first_sound(after_frame, timeout=10):
    """The first recorded frame after `after_frame` with a sample off zero, or None."""
    deadline = time.monotonic() + timeout
    with open(monitor, "rb") as recording:
        position = after_frame * 8
        while time.monotonic() < deadline:
            recording.seek(position)
            data = recording.read()
            usable = len(data) - len(data) % 8
            samples = memoryview(data[:usable]).cast("f")
            for index, sample in enumerate(samples):
                if abs(sample) > 1e-4:
                    return position // 8 + index // 2
            position += usable
            time.sleep(0.01)
    return None


def first_audio(command, env, runs=5):
    latencies = []
    for _ in range(runs):
        before = recorded_frames()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        heard = first_sound(before)
        process.terminate()
        _, errors = process.communicate(timeout=20)
        if heard is None:
            sys.exit(f"bench-stream: nothing heard from {' '.join(command)}: {errors.decode(errors='replace').strip()}")
        latencies.append((heard - before) / 48000)
        time.sleep(0.3)
    return latencies


def show_first(label, latencies, goal=""):
    print(f"  {label:<34} {' '.join(f'{t:.3f}' for t in latencies)} s, median {statistics.median(latencies):.3f} s{goal}")


def resident_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def playing(label, command, env):
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    time.sleep(seconds - 1)
    last = resident_kib(process.pid)
    process.terminate()
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, -15, 143, 255):  # ffmpeg exits with 255 when stopped
        sys.exit(f"bench-stream: {' '.join(command)} exited with {code}: {errors.decode(errors='replace').strip()}")
    cpu = usage.ru_utime + usage.ru_stime
    return label, 100 * cpu / elapsed, usage.ru_maxrss / 1024, last / 1024


window = ["--size", "640x360"]
url, slow_url = base_url + short_name, base_url + "slow/" + short_name
recorder = subprocess.Popen(["parec", "-d", "viz.monitor", "--format=float32le", "--rate=48000", "--channels=2",
                             "--raw", "--latency-msec=20", monitor], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    deadline = time.monotonic() + 5
    while recorded_frames() == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    if recorded_frames() == 0:
        sys.exit("bench-stream: parec records nothing from viz.monitor")

    print(f"time to first audio, {short_name} ({os.path.getsize(short_file) / 2**20:.1f} MiB, 60 s), 5 runs each:")
    disk = first_audio([decibar, "play", short_file] + window, fresh_cache())
    fast = first_audio([decibar, "play", url] + window, fresh_cache())
    slow = first_audio([decibar, "play", slow_url] + window, fresh_cache())
    ffmpeg_fast = first_audio(["ffmpeg", "-nostdin", "-v", "error", "-i", url, "-f", "pulse", "-device", "viz", "bench"], os.environ)
    ffmpeg_slow = first_audio(["ffmpeg", "-nostdin", "-v", "error", "-i", slow_url, "-f", "pulse", "-device", "viz", "bench"], os.environ)
    show_first("decibar play FILE (disk)", disk)
    show_first("decibar play URL (full speed)", fast)
    show_first("decibar play URL (20 s download)", slow, "   (goal 0.5 s)")
    show_first("ffmpeg -i URL -f pulse (full speed)", ffmpeg_fast)
    show_first("ffmpeg -i URL -f pulse (20 s dl.)", ffmpeg_slow)
    print(f"  ratios decibar/ffmpeg: full speed {statistics.median(fast) / statistics.median(ffmpeg_fast):.2f}, "
          f"throttled {statistics.median(slow) / statistics.median(ffmpeg_slow):.2f}; "
          f"URL/disk {statistics.median(fast) / statistics.median(disk):.2f}")
finally:
    recorder.terminate()
    recorder.wait()
    os.remove(monitor)

print(f"\nplaying {hour_name} ({os.path.getsize(hour_file) / 2**20:.0f} MiB, 60 min) for {seconds:.0f} s, window 640x360:")
rows = [
    playing("decibar play FILE (disk)", [decibar, "play", hour_file] + window, fresh_cache()),
    playing("decibar play URL (full speed)", [decibar, "play", base_url + hour_name] + window, fresh_cache()),
    playing("decibar play URL (3x its bit rate)", [decibar, "play", base_url + "slow/" + hour_name] + window, fresh_cache()),
    playing("ffmpeg -f pulse URL (3x bit rate)",
            ["ffmpeg", "-nostdin", "-v", "error", "-i", base_url + "slow/" + hour_name, "-f", "pulse", "-device", "viz", "bench"],
            os.environ),
]
print(f"  {'':<36} {'CPU %':>6} {'peak RSS':>9} {'RSS at end':>11}")
for label, cpu, peak, last in rows:
    print(f"  {label:<36} {cpu:6.1f} {peak:7.1f} M {last:9.1f} M")
disk_row = rows[0]
for label, cpu, peak, _ in rows[1:3]:
    print(f"  {label} against disk: CPU x{cpu / disk_row[1]:.2f}, peak RSS x{peak / disk_row[2]:.2f}")
print("  (the full-speed download also parses the whole hour for the overview within the run; from disk the same")
print("   overview is made from the file; throttled, only what has arrived is analysed)")
