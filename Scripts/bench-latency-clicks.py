#!/usr/bin/env python3
"""Click player, monitor listener and analysis for bench-latency.sh (Python 3 stdlib only).

  bench-latency-clicks.py play WRITES CLICKS INTERVAL_S   silence + bursts into pacat (sink "viz");
                                                         WRITES gets each burst's write time
  bench-latency-clicks.py monitor LOG                    parec on viz.monitor; LOG gets every read
                                                         and every burst onset (stream positions)
  bench-latency-clicks.py analyze WRITES LOG FRAMES      prints the figures

All times are CLOCK_MONOTONIC seconds, the clock decibar's --frame-log uses.
"""
import array
import fcntl
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import time

RATE = 48000
CHANNELS = 2
CHUNK = 240                 # frames per write: 5 ms, PulseAudio's own granularity at this latency
LEAD_CHUNKS = 4             # written ahead of real time so pacat never runs dry
FIRST_CLICK_S = 1.0
BURST_S = 0.020
BURST_HZ = 1000.0
BURST_AMPLITUDE = 0.8
LOUD = 0.1                  # monitor: a sample above this is part of a burst
QUIET_GAP_S = 0.3           # monitor: loud samples closer than this belong to the same burst
MATCH_WINDOW_S = 0.4        # a reaction later than this is not counted for a click
THRESHOLDS = (0.005, 0.01, 0.02, 0.04)
THRESHOLD = 0.01


def now():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def play(writes_path, clicks, interval):
    pacat = ["pacat", "--playback", "--raw", "--format=float32le", f"--rate={RATE}",
             f"--channels={CHANNELS}", "--latency-msec=5", "--device=viz"]
    player = subprocess.Popen(pacat, stdin=subprocess.PIPE, bufsize=0)
    # A default pipe holds 64 KiB, 170 ms of this audio; one page keeps the backlog small. The
    # pacing below keeps it near empty anyway, and the monitor measurement absorbs what remains.
    fcntl.fcntl(player.stdin.fileno(), fcntl.F_SETPIPE_SZ, 4096)

    silence = bytes(CHUNK * CHANNELS * 4)
    burst_frames = int(BURST_S * RATE)
    tone = array.array("f")
    for frame in range(math.ceil(burst_frames / CHUNK) * CHUNK):
        value = BURST_AMPLITUDE * math.sin(2 * math.pi * BURST_HZ * frame / RATE) if frame < burst_frames else 0.0
        tone.extend((value, value))
    tone_bytes = tone.tobytes()
    chunk_bytes = CHUNK * CHANNELS * 4
    tone_chunks = [tone_bytes[i:i + chunk_bytes] for i in range(0, len(tone_bytes), chunk_bytes)]

    chunk_s = CHUNK / RATE
    # A fixed interval of 700 ms is exactly 42 frames at 60 Hz: every click would land at the same
    # point of the frame cycle. Jitter of +-50 ms (seeded, so runs compare) spreads them over it.
    jitter = random.Random(1)
    starts = set()
    at = FIRST_CLICK_S
    for _ in range(clicks):
        starts.add(round(at / chunk_s))
        at += interval + jitter.uniform(-0.05, 0.05)
    total = max(starts) + round(0.5 / chunk_s)

    written = []
    start = now()
    k = 0
    out = player.stdin.fileno()
    while k < total:
        delay = start + (k - LEAD_CHUNKS) * chunk_s - now()
        if delay > 0:
            time.sleep(delay)
        if k in starts:
            # The burst's first sample goes into the pipe with this write.
            written.append(now())
            for piece in tone_chunks:
                os.write(out, piece)
            k += len(tone_chunks)
        else:
            os.write(out, silence)
            k += 1
    player.stdin.close()
    player.wait()
    with open(writes_path, "w") as f:
        f.writelines(f"{t:.6f}\n" for t in written)


def monitor(log_path):
    """Logs "r <read time> <frames so far>" per read and "o <read time> <frame>" per burst onset."""
    parec = ["parec", "--raw", "--format=float32le", f"--rate={RATE}", f"--channels={CHANNELS}",
             "--latency-msec=5", "--device=viz.monitor"]
    recorder = subprocess.Popen(parec, stdout=subprocess.PIPE, bufsize=0)
    # Stopped by PID from the shell script: take parec down too rather than leave it orphaned.
    signal.signal(signal.SIGTERM, lambda *_: (recorder.terminate(), sys.exit(0)))
    fd = recorder.stdout.fileno()
    frame_bytes = CHANNELS * 4
    gap_frames = int(QUIET_GAP_S * RATE)
    frames_seen = 0
    last_loud = -gap_frames - 1
    leftover = b""
    with open(log_path, "w", buffering=1) as out:
        while True:
            data = os.read(fd, 65536)
            arrival = now()
            if not data:
                break
            data = leftover + data
            usable = len(data) - len(data) % frame_bytes
            leftover = data[usable:]
            samples = array.array("f")
            samples.frombytes(data[:usable])
            # Scanning in Python only when something is loud keeps this listener cheap.
            if samples and (max(samples) > LOUD or min(samples) < -LOUD):
                for index in range(len(samples)):
                    if abs(samples[index]) > LOUD:
                        frame = frames_seen + index // CHANNELS
                        if frame - last_loud > gap_frames:
                            out.write(f"o {arrival:.6f} {frame}\n")
                        last_loud = frame
            frames_seen += len(samples) // CHANNELS
            out.write(f"r {arrival:.6f} {frames_seen}\n")


def monitor_onsets(log_path):
    """(read time, stream time) per burst seen on the monitor.

    The stream time places the onset frame on CLOCK_MONOTONIC by its position in the monitor
    stream: a read's newest frame was in the server no later than the read, so the smallest
    (read time - stream position) over all reads is the stream's clock offset, free of the delays
    with which this reader happened to be scheduled.
    """
    reads, onsets = [], []
    for line in open(log_path):
        parts = line.split()
        if len(parts) == 3 and parts[0] in ("r", "o"):
            (reads if parts[0] == "r" else onsets).append((float(parts[1]), int(parts[2])))
    if not reads:
        return [], None
    offsets = [t - frames / RATE for t, frames in reads]
    origin = min(offsets)
    lag_ms = statistics.median(offsets) * 1000 - origin * 1000
    return [(t, origin + frame / RATE) for t, frame in onsets], lag_ms


def percentile(values, share):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def reactions(writes, frames, threshold):
    """Time of the first frame after each write whose mean bar rose by more than threshold."""
    found = []
    for written in writes:
        hit = None
        for (t0, m0), (t1, m1) in zip(frames, frames[1:]):
            if t1 < written:
                continue
            if t1 > written + MATCH_WINDOW_S:
                break
            if m1 - m0 > threshold:
                hit = t1
                break
        found.append(hit)
    return found


def analyze(writes_path, monitor_path, frames_path):
    writes = [float(line) for line in open(writes_path) if line.strip()]
    onsets, read_lag_ms = monitor_onsets(monitor_path)
    frames = []
    for line in open(frames_path):
        parts = line.split()
        if len(parts) == 2:
            frames.append((float(parts[0]), float(parts[1])))
    if not writes or len(frames) < 2:
        sys.exit("bench-latency: nothing to analyze (no clicks written or no frames logged)")

    heard = []
    for written in writes:
        match = next((o for o in onsets if written - 0.002 <= o[1] and o[0] <= written + MATCH_WINDOW_S), None)
        heard.append(match)

    reacted = reactions(writes, frames, THRESHOLD)
    ms = lambda seconds: seconds * 1000

    to_frame = [ms(r - w) for w, r in zip(writes, reacted) if r is not None]
    to_parec = [ms(h[0] - w) for w, h in zip(writes, heard) if h is not None]
    to_onset = [ms(h[1] - w) for w, h in zip(writes, heard) if h is not None]
    own = [ms(r - h[1]) for r, h in zip(reacted, heard) if r is not None and h is not None]
    own_arrival = [ms(r - h[0]) for r, h in zip(reacted, heard) if r is not None and h is not None]
    periods = [b[0] - a[0] for a, b in zip(frames, frames[1:])]

    n = len(writes)
    print(f"clicks: {n} written, {len(to_parec)} seen by parec, {len(to_frame)} reacted in decibar "
          f"(frame threshold +{THRESHOLD} mean bar value); frames: {len(frames)}, "
          f"median period {ms(statistics.median(periods)):.1f} ms")
    if not to_parec:
        sys.exit("bench-latency: parec heard none of the clicks on the monitor")
    if not to_frame or not own:
        sys.exit("bench-latency: no click could be matched to a reacting frame")
    print(f"click written -> first reacting frame:      median {statistics.median(to_frame):5.1f} ms, "
          f"p90 {percentile(to_frame, 0.9):5.1f} ms  (upper bound: includes pacat's and the pipe's buffer)")
    print(f"click written -> burst read by parec:       median {statistics.median(to_parec):5.1f} ms  "
          f"(first sample due on the monitor at {statistics.median(to_onset):5.1f} ms; "
          f"parec's reads trail the stream by {read_lag_ms:.1f} ms median)")
    print(f"Decibar's own audio-to-frame latency:       median {statistics.median(own):5.1f} ms, "
          f"p90 {percentile(own, 0.9):5.1f} ms  (goal: median <= 12 ms, p90 < 18 ms; per click, frame - first sample due on monitor)")
    # Audio arrives at any point of the frame cycle, so on average it waits half a period for the
    # next frame to read it: at 60 Hz that alone is 8.3 ms of a 12 ms budget.
    slot_wait = ms(statistics.median(periods)) / 2
    print(f"  of which the wait for the next frame slot: {slot_wait:4.1f} ms on average (half the {ms(statistics.median(periods)):.1f} ms period), "
          f"{100 * slot_wait / statistics.median(own):.0f} % of the median")
    if os.environ.get("LATENCY_DETAIL"):
        print("  each click, sorted (ms): " + " ".join(f"{value:.1f}" for value in sorted(own)))
    print(f"  same, counted from parec's read instead:  median {statistics.median(own_arrival):5.1f} ms, "
          f"p90 {percentile(own_arrival, 0.9):5.1f} ms")
    robust = []
    for threshold in THRESHOLDS:
        hits = reactions(writes, frames, threshold)
        values = [ms(r - h[1]) for r, h in zip(hits, heard) if r is not None and h is not None]
        robust.append(f"+{threshold}: {statistics.median(values):.1f} ms ({len(values)}/{n})" if values
                      else f"+{threshold}: none")
    print("  threshold check (median own latency):   " + ", ".join(robust))


def main(argv):
    if len(argv) >= 2 and argv[1] == "play" and len(argv) == 5:
        play(argv[2], int(argv[3]), float(argv[4]))
    elif len(argv) == 3 and argv[1] == "monitor":
        monitor(argv[2])
    elif len(argv) == 5 and argv[1] == "analyze":
        analyze(argv[2], argv[3], argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
