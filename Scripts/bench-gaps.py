#!/usr/bin/env python3
"""Gaps in what is heard while the machine is busy: plays a continuous tone under a load of busy
loops and records the null sink's monitor with parec, then counts the gaps (runs of 1 ms or more
of digital silence) and the jumps (a step between neighbouring samples larger than the tone's own
steepest, times 1.25) inside the sound, for each player beside `paplay` of the same file under the
same load. Run by bench-gaps.sh, inside a private PulseAudio (and Xvfb for `play`'s window).

Usage: bench-gaps.py DECIBAR SECONDS LOOPS CASE [CASE ...]
  CASE: paplay | play | play:--rate=1.5 | play:--pitch=300 | daemon | daemon:rate=1.5 ...
        (play's options after the colon, separated by commas; daemon's after it are `ctl set`s
        of player.KEY=VALUE before `ctl open`); a `normal-` before play or daemon runs decibar
        without CAP_SYS_NICE (setpriv), so its threads cannot be made real-time (as for a desktop
        user without rtkit)
Environment: DECIBAR_GAPS_TONE=HZ (440), DECIBAR_GAPS_FOLDER=DIR (where the tone and recordings go).
"""
import json
import math
import resource
import os
import signal
import subprocess
import sys
import tempfile
import time

import numpy

RATE = 48000


def make_tone(path, seconds, hertz):
    """A stereo float WAV: a 0.5 sine, faded in and out over 10 ms so its edges are not clicks."""
    t = numpy.arange(int(seconds * RATE)) / RATE
    tone = 0.5 * numpy.sin(2 * math.pi * hertz * t)
    fade = int(0.01 * RATE)
    tone[:fade] *= numpy.linspace(0, 1, fade)
    tone[-fade:] *= numpy.linspace(1, 0, fade)
    frames = numpy.repeat(tone.astype(numpy.float32), 2)
    data = frames.tobytes()
    header = b"RIFF" + (36 + len(data)).to_bytes(4, "little") + b"WAVE"
    header += b"fmt " + (16).to_bytes(4, "little") + (3).to_bytes(2, "little") + (2).to_bytes(2, "little")
    header += RATE.to_bytes(4, "little") + (RATE * 8).to_bytes(4, "little") + (8).to_bytes(2, "little") + (32).to_bytes(2, "little")
    header += b"data" + len(data).to_bytes(4, "little")
    with open(path, "wb") as out:
        out.write(header + data)


def start_load(loops):
    """Busy loops at normal priority, in this session (and scheduling group), as a build beside would be."""
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(loops)]


def stop(processes):
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def analyse(path, hertz):
    """Gaps (ms each) and jumps (count, largest) inside the sound of a float32 stereo recording."""
    raw = numpy.fromfile(path, dtype=numpy.float32)
    left = raw[0::2]
    loud = numpy.flatnonzero(numpy.abs(left) > 0.05)
    if loud.size == 0:
        return None
    first, last = int(loud[0]), int(loud[-1])
    inside = left[first:last + 1]
    silent = numpy.abs(inside) <= 1e-6
    # Runs of silence: where it starts and ends.
    edges = numpy.diff(numpy.concatenate(([0], silent.astype(numpy.int8), [0])))
    starts, ends = numpy.flatnonzero(edges == 1), numpy.flatnonzero(edges == -1)
    gaps = [(int(s), (e - s) / RATE * 1000) for s, e in zip(starts, ends) if e - s >= RATE // 1000]
    peak = float(numpy.abs(inside).max())
    steepest = 2 * math.pi * hertz * peak / RATE
    steps = numpy.abs(numpy.diff(inside))
    jumps = numpy.flatnonzero(steps > 1.25 * steepest)
    # A jump beside a gap is that gap's edge: counted once, as the gap.
    near_gap = numpy.zeros(inside.size, dtype=bool)
    for s, e in zip(starts, ends):
        if e - s >= RATE // 1000:
            near_gap[max(0, s - 2):e + 2] = True
    jumps = [int(j) for j in jumps if not near_gap[j]]
    return {"seconds": (last - first) / RATE, "gaps": gaps, "jumps": len(jumps),
            "largest_step": float(steps.max()), "steepest": steepest,
            "first_jumps": [round(j / RATE, 3) for j in jumps[:5]]}


def run_case(case, decibar, tone, seconds, loops, folder, hertz):
    kind, _, extra = case.partition(":")
    prefix = []
    if kind.startswith("normal-"):
        kind = kind[len("normal-"):]
        prefix = ["setpriv", "--bounding-set=-sys_nice", "--"]
    recording = os.path.join(folder, f"{kind}-{len(os.listdir(folder))}.raw")
    recorder = subprocess.Popen(["parec", "-d", "viz.monitor", "--format=float32le", "--rate=48000", "--channels=2",
                                 "--latency-msec=20", recording])
    time.sleep(0.5)
    load = start_load(loops)
    time.sleep(0.5)
    started = time.monotonic()
    faults_before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    report = ""
    try:
        if kind == "paplay":
            subprocess.run(["paplay", tone], check=True, timeout=seconds * 3 + 30)
        elif kind == "play":
            options = [o.replace("=", " ", 1).split(" ") for o in extra.split(",") if o]
            command = prefix + [decibar, "play", tone, "--exit-at-end", "--size", "640x360"] + [p for o in options for p in o]
            player = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            errors = player.communicate(timeout=seconds * 3 + 30)[1]
            report = " | ".join(line for line in errors.strip().split("\n") if "playing" not in line)
            usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            report += f" minor faults {usage.ru_minflt - faults_before}"
        elif kind == "daemon":
            report = run_daemon(prefix, decibar, tone, seconds, extra, folder)
        else:
            sys.exit(f"bench-gaps: unknown case {case}")
    finally:
        took = time.monotonic() - started
        stop(load)
        time.sleep(0.5)
        recorder.send_signal(signal.SIGINT)
        stop([recorder])
    return analyse(recording, hertz), took, report


def run_daemon(prefix, decibar, tone, seconds, extra, folder):
    """The daemon with its window hidden: ctl set, then ctl open; waits for the track to end."""
    runtime = tempfile.mkdtemp(prefix="d", dir=folder)
    environment = dict(os.environ, XDG_RUNTIME_DIR=runtime)
    daemon = subprocess.Popen(prefix + [decibar, "daemon"], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        def ctl(*words):
            return subprocess.run([decibar, "ctl"] + list(words), env=environment, capture_output=True, text=True, timeout=10)
        for _ in range(200):
            if ctl("status").returncode == 0:
                break
            time.sleep(0.05)
        for setting in [s for s in extra.split(",") if s]:
            key, _, value = setting.partition("=")
            ctl("set", "player." + key, value)
        opened = ctl("open", tone)
        if opened.returncode != 0:
            return "ctl open: " + opened.stderr.strip()
        deadline = time.monotonic() + seconds * 3 + 30
        status, played = {}, False
        while time.monotonic() < deadline:
            time.sleep(0.25)
            answer = ctl("--json", "status")
            try:
                status = json.loads(answer.stdout)
            except json.JSONDecodeError:
                continue
            state = (status.get("player") or {}).get("state")
            played = played or state == "playing"
            if played and state != "playing":
                break
        player = status.get("player") or {}
        return f"underruns {player.get('underruns')}, dropouts {player.get('dropouts')}, priority {player.get('priority', '?')}"
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()


def main():
    decibar, seconds, loops = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    cases = sys.argv[4:]
    hertz = float(os.environ.get("DECIBAR_GAPS_TONE", "440"))
    folder = os.environ.get("DECIBAR_GAPS_FOLDER") or tempfile.mkdtemp(prefix="gaps.")
    tone = os.path.join(folder, "tone.wav")
    make_tone(tone, seconds, hertz)
    print(f"{seconds:.0f} s of a {hertz:.0f} Hz tone, {loops} busy loops at normal priority on {os.cpu_count()} cores")
    failed = False
    for case in cases:
        pitched = 2 ** (float(case.split("--pitch=")[1].split(",")[0]) / 1200) if "--pitch=" in case else 1
        pitched = 2 ** (float(case.split("pitch=")[1].split(",")[0]) / 1200) if "pitch=" in case and pitched == 1 else pitched
        result, took, report = run_case(case, decibar, tone, seconds, loops, folder, hertz * pitched)
        if result is None:
            print(f"  {case:28s} nothing was heard ({report})")
            failed = True
            continue
        gaps = result["gaps"]
        longest = max((g[1] for g in gaps), default=0)
        print(f"  {case:28s} {len(gaps):3d} gaps (longest {longest:5.1f} ms), {result['jumps']:3d} jumps "
              f"(largest step {result['largest_step']:.3f}, the tone's {result['steepest']:.3f}), "
              f"{result['seconds']:.1f} s heard in {took:.1f} s" + (f"  [{report}]" if report else ""))
        if gaps:
            print("      gaps at " + ", ".join(f"{g[0] / RATE:.2f} s ({g[1]:.1f} ms)" for g in gaps[:8]))
        if result["first_jumps"]:
            print("      jumps at " + ", ".join(f"{j:.3f} s" for j in result["first_jumps"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
