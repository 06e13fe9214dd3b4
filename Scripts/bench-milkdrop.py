#!/usr/bin/env python3
"""Frames per second and CPU of `decibar live --mode milkdrop` with the default list, beside bars
mode in the same run, at 1280x720 and 1920x1080 on a private Xvfb (Mesa's software renderer), music
playing into a private PulseAudio; and render speed (frames per second of `decibar render`) for
Milkdrop and bars. CPU is decibar's own (utime + stime from /proc) over the window, in % of one core.

Usage: bench-milkdrop.py [--binary PATH] [--presets N] [--seconds S]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

from music_desk import MusicDesk, measure_live as live

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)


def default_names():
    text = open(os.path.join(root, "Sources/DecibarApp/Visuals/Milkdrop/DefaultPresets.swift")).read()
    return [name.encode().decode("unicode_escape") for name in re.findall(r'^\s+"((?:[^"\\]|\\.)*)",$', text, re.M)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(root, ".build/release/decibar"))
    parser.add_argument("--presets", type=int, default=8, help="presets of the default list, spread evenly (default 8)")
    parser.add_argument("--seconds", type=float, default=8)
    options = parser.parse_args()
    names = default_names()
    if not names:
        sys.exit("bench-milkdrop: the default list is empty (Scripts/measure-presets.py --write-list)")
    chosen = [names[int(index * len(names) / min(options.presets, len(names)))] for index in range(min(options.presets, len(names)))]
    with MusicDesk("decibar-bench-milkdrop-") as desk:
        environment, music, rig = desk.environment, desk.music, desk.folder
        print("| size | bars: frames/s | bars: CPU % | Milkdrop: frames/s (median, lowest) | Milkdrop: CPU % (median) |")
        print("|---|---|---|---|---|")
        for size in ("1280x720", "1920x1080"):
            bars = live(options.binary, environment, ["--mode", "bars", "--size", size], options.seconds)
            results = [live(options.binary, environment, ["--mode", "milkdrop", "--preset", name, "--size", size], options.seconds)
                       for name in chosen]
            print("| %s | %.1f | %.0f | %.1f, %.1f | %.0f |" % (size, bars[0], bars[1], statistics.median(r[0] for r in results),
                                                         min(r[0] for r in results), statistics.median(r[1] for r in results)), flush=True)
        for mode in ("bars", "milkdrop"):
            result = subprocess.run([options.binary, "render", music, "--mode", mode, "--duration", "10", "--size", "1280x720",
                                     "-o", os.path.join(rig, mode + ".mp4")], env=environment, stderr=subprocess.PIPE, text=True)
            speed = re.search(r"\(([0-9.]+) frames/s\)", result.stderr)
            print("render 10 s at 1280x720, 30 fps, %s: %s frames/s" % (mode, speed.group(1) if speed else result.stderr.strip()))


if __name__ == "__main__":
    main()
