#!/usr/bin/env python3
"""What a Milkdrop transition costs: a frame that blends two presets against a frame of one.

Each pair of presets (the seed picks them from the default list) is rendered offline at the size
asked, 10 s at 30 fps of a synthesized song's quiet intro (no tempo: changes come on time, a beat
lasting half a second), four ways, the frames encoded the same way each time:
  bars      --mode bars: what every render costs besides the picture;
  outgoing  the first preset held for the whole render;
  cut       the first preset for 1 s, then the second by a cut;
  STYLE     the first for 1 s, then both blended by that style for the rest (a 32-beat transition).
A frame's picture costs its render's seconds per frame (the least of --repeats renders) less bars'. The blend's frames after its
first second are compared with one preset's frame: the mean of the held first preset's and of the
cut render's (after its first second, the second preset). Goal: at most 2.2 times, for each style.

Usage: bench-transitions.py [--binary PATH] [--size 1280x720] [--seeds 1,2,3] [--styles blend,circle,...] [--repeats 2]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)


REPEATS = 2


def render(binary, song, folder, name, size, extra):
    """Seconds a frame, the least of REPEATS renders (the others were disturbed), and what it said."""
    output = os.path.join(folder, name + ".mp4")
    best = None
    for _ in range(REPEATS):
        started = time.monotonic()
        done = subprocess.run([binary, "render", song, "--duration", "10", "--fps", "30", "--size", size, "-o", output] + extra,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.monotonic() - started
        if done.returncode != 0:
            sys.exit("bench-transitions: %s failed: %s" % (name, done.stderr.strip()))
        os.remove(output)
        best = elapsed if best is None else min(best, elapsed)
    return best / 300, done.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(root, ".build/release/decibar"))
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--styles", default="blend,circle,plasma,sweep,warp,zoom")
    parser.add_argument("--repeats", type=int, default=2)
    arguments = parser.parse_args()
    global REPEATS
    REPEATS = max(1, arguments.repeats)
    folder = tempfile.mkdtemp(prefix="decibar-transitions.")
    try:
        song = os.path.join(folder, "song.wav")
        subprocess.run([os.path.join(here, "make-music.sh"), song, "0", "-14"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        bars, _ = render(arguments.binary, song, folder, "bars", arguments.size, ["--mode", "bars"])
        styles = arguments.styles.split(",")
        print("%s, 300 frames a render; bars alone %.1f ms a frame; a picture's ms a frame, and a blend's over one preset's" % (
            arguments.size, bars * 1000))
        print("%-5s %-34s %-34s %7s %7s " % ("seed", "first preset", "second preset", "first", "second")
              + " ".join("%13s" % style for style in styles))
        ratios = {style: [] for style in styles}
        for seed in arguments.seeds.split(","):
            milkdrop = ["--mode", "milkdrop", "--seed", seed]
            held, _ = render(arguments.binary, song, folder, "held", arguments.size, milkdrop + ["--preset-duration", "3600"])
            cut, said = render(arguments.binary, song, folder, "cut", arguments.size,
                               milkdrop + ["--preset-duration", "1", "--transition", "cut"])
            names = re.findall(r"\): (.*?)(?:, by .*)?$", said, re.M)
            # The renders' first second (30 frames) is the first preset in each: take it out.
            def later(per_frame):
                return (per_frame * 300 - held * 30) / 270
            first = held - bars
            second = later(cut) - bars
            cells = []
            for style in styles:
                blend, _ = render(arguments.binary, song, folder, style, arguments.size,
                                  milkdrop + ["--preset-duration", "1", "--transition", style, "--transition-beats", "32"])
                blended = later(blend) - bars
                ratio = blended / ((first + second) / 2)
                ratios[style].append(ratio)
                cells.append("%5.1f ms %4.2f" % (blended * 1000, ratio))
            print("%-5s %-34.34s %-34.34s %7.1f %7.1f " % (seed, names[0] if names else "?", names[1] if len(names) > 1 else "?",
                                                         first * 1000, second * 1000) + " ".join(cells))
            sys.stdout.flush()
        medians = {style: sorted(values)[len(values) // 2] for style, values in ratios.items()}
        print("median ratio: " + ", ".join("%s %.2f" % (style, medians[style]) for style in styles) + " (goal: at most 2.2)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
