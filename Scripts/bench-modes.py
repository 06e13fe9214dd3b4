#!/usr/bin/env python3
"""The pictures of issue 51 live, beside bars mode in the same run: frames per second and decibar's
CPU (% of one core) of `decibar live` at 1280x720 on a private Xvfb (Mesa's software renderer),
music playing into a private PulseAudio; then `decibar spectrogram` against `sox spectrogram` on
the same 10-minute WAV, alternating, wall time of each.

Usage: bench-modes.py [--binary PATH] [--seconds S] [--runs N]
"""
import argparse
import os
import statistics
import subprocess
import time

from music_desk import MusicDesk, measure_live

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
examples = os.path.join(root, "Shaders", "examples")

PICTURES = [
    ("bars (reference)", ["--mode", "bars"]),
    ("spectrogram", ["--mode", "spectrogram"]),
    ("scope", ["--mode", "scope"]),
    ("radial bars", ["--mode", "bars", "--layout", "radial", "--caps"]),
    ("radial spectrum", ["--mode", "spectrum", "--layout", "radial", "--caps"]),
    ("shadertoy spectrum-ring.glsl", ["--shader", os.path.join(examples, "spectrum-ring.glsl")]),
    ("shadertoy aurora.glsl", ["--shader", os.path.join(examples, "aurora.glsl")]),
    ("shadertoy scope-glow.glsl", ["--shader", os.path.join(examples, "scope-glow.glsl")]),
]


def wall(command, environment):
    started = time.monotonic()
    subprocess.run(command, env=environment, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(root, ".build/release/decibar"))
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--runs", type=int, default=3, help="runs of each spectrogram command (default 3)")
    options = parser.parse_args()
    with MusicDesk("decibar-bench-modes-") as desk:
        print("| picture at 1280x720 | frames/s | CPU % of a core | CPU / bars |")
        print("|---|---|---|---|")
        bars_cpu = None
        for name, arguments in PICTURES:
            fps, cpu = measure_live(options.binary, desk.environment, arguments + ["--size", "1280x720"], options.seconds)
            bars_cpu = bars_cpu or cpu
            print("| %s | %.1f | %.0f | %.2f |" % (name, fps, cpu, cpu / bars_cpu), flush=True)
        long = os.path.join(desk.folder, "long.wav")
        subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-stream_loop", "-1", "-i", desk.music, "-t", "600", "-c:a", "pcm_s16le", long],
                       check=True)
        ours, theirs = [], []
        for _ in range(options.runs):
            ours.append(wall([options.binary, "spectrogram", long, "-o", os.path.join(desk.folder, "ours.png")], desk.environment))
            theirs.append(wall(["sox", long, "-n", "spectrogram", "-o", os.path.join(desk.folder, "sox.png")], desk.environment))
        print("\n10-minute 48 kHz stereo WAV, %d runs each, alternating: decibar spectrogram %.2f s (median), sox spectrogram %.2f s;"
              " decibar / sox = %.2f" % (options.runs, statistics.median(ours), statistics.median(theirs),
                                         statistics.median(ours) / statistics.median(theirs)))


if __name__ == "__main__":
    main()
