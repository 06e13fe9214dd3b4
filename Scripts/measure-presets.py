#!/usr/bin/env python3
"""Measures installed Milkdrop presets the way a user sees them, and writes the default playlist.

For each preset (every one, or an evenly spread sample):
  - frames per second of `decibar live --mode milkdrop` at WxH (1280x720) on a private Xvfb, that
    is Mesa's software renderer (llvmpipe), with music playing into a private PulseAudio's null
    sink; counted from the window's own frame log after the first half second;
  - whether it draws anything: an offline render of the same music at 320x180 and 15 fps is read
    back; black (mean level under 3 %) or a still (frames 1 s apart differing by under 0.5 % on
    average) fails;
  - how long it takes to start: from the process's start to its first frame, minus the same for
    bars mode in the same run.
A preset is in the default list when it draws and keeps at least --min-fps (default 90 % of the
display rate the window runs at here, 60 Hz). `--write-list` writes the names into
Sources/DecibarApp/Visuals/Milkdrop/DefaultPresets.swift; the table goes to stdout (and --table FILE).

Usage: measure-presets.py [--binary PATH] [--presets DIR] [--sample N | --all] [--size WxH]
                          [--seconds S] [--min-fps F] [--write-list] [--table FILE]
"""
import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from music_desk import MusicDesk

import numpy

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)


def run(arguments, **kwargs):
    return subprocess.run(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def presets_in(folder):
    found = []
    for base, _, names in os.walk(folder):
        found += [os.path.join(base, name) for name in names if name.lower().endswith(".milk")]
    return sorted(found, key=lambda path: os.path.relpath(path, folder))


def name_of(path):
    name = os.path.basename(path)
    return name[:-5] if name.lower().endswith(".milk") else name


def frame_rate(binary, environment, arguments, seconds):
    """Frames per second after the first half second, and seconds from start to the first frame."""
    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        clock_at_start = time.clock_gettime(time.CLOCK_MONOTONIC)
        result = run([binary, "live", *arguments, "--exit-after", str(seconds), "--frame-log", log.name],
                     env=environment, timeout=seconds + 30)
        lines = [line.split() for line in open(log.name) if line.strip()]
    if result.returncode != 0 or len(lines) < 3:
        return None, None, result.stderr.strip().splitlines()[-1:] or ["no frames"]
    times = [float(line[0]) for line in lines]
    first = times[0] - clock_at_start
    steady = [t for t in times if t >= times[0] + 0.5]
    fps = (len(steady) - 1) / (steady[-1] - steady[0]) if len(steady) > 2 else 0.0
    return fps, first, []


def draws(binary, environment, preset, music, folder):
    """(mean level, mean change between frames a second apart), from an offline render."""
    frames = os.path.join(folder, "frames")
    result = run([binary, "render", music, "--mode", "milkdrop", "--preset", preset, "--duration", "3", "--fps", "15",
                  "--size", "320x180", "--video-layout", "off", "-o", frames + "/"], env=environment, timeout=120)
    if result.returncode != 0:
        return None, None, result.stderr.strip().splitlines()[-1:]
    skipped = [line for line in result.stderr.splitlines() if "skipped" in line]
    pictures = []
    for index in (16, 31, 45):
        data = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", os.path.join(frames, "frame-%06d.png" % index),
                               "-vf", "crop=320:100:0:0", "-f", "rawvideo", "-pix_fmt", "gray", "-"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        pictures.append(numpy.frombuffer(data, dtype=numpy.uint8).astype(numpy.float64) / 255)
    for name in os.listdir(frames):
        os.unlink(os.path.join(frames, name))
    level = float(pictures[-1].mean())
    change = float(min(numpy.abs(pictures[1] - pictures[0]).mean(), numpy.abs(pictures[2] - pictures[1]).mean()))
    return level, change, skipped


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(root, ".build/release/decibar"))
    parser.add_argument("--presets", default="/usr/share/projectM/presets")
    parser.add_argument("--sample", type=int, default=120, help="presets measured, spread evenly (default 120)")
    parser.add_argument("--all", action="store_true", help="every preset (hours)")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--seconds", type=float, default=2.5)
    parser.add_argument("--min-fps", type=float, default=54.0)
    parser.add_argument("--write-list", action="store_true")
    parser.add_argument("--table")
    options = parser.parse_args()
    # Interrupted, it still stops the servers and the player it started (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))

    paths = presets_in(options.presets)
    if not paths:
        sys.exit("measure-presets: no presets in %s (apt install projectm-data)" % options.presets)
    if not options.all and options.sample < len(paths):
        step = len(paths) / options.sample
        paths = [paths[int(index * step)] for index in range(options.sample)]

    with MusicDesk("decibar-presets-") as desk:
        environment, music, rig = desk.environment, desk.music, desk.folder
        window = ["--size", options.size]
        bars_fps, bars_first, problem = frame_rate(options.binary, environment, ["--mode", "bars", *window], options.seconds)
        if bars_fps is None:
            sys.exit("measure-presets: bars mode did not draw: %s" % problem)
        rows = []
        for number, path in enumerate(paths, 1):
            fps, first, problem = frame_rate(options.binary, environment,
                                             ["--mode", "milkdrop", "--preset", path, *window], options.seconds)
            level, change, skipped = draws(options.binary, environment, path, music, rig)
            load = None if first is None else max(0.0, first - bars_first)
            good = (fps is not None and fps >= options.min_fps and level is not None and not skipped
                    and level >= 0.03 and change >= 0.005)
            rows.append((name_of(path), fps, level, change, load, good, (problem or skipped or [""])[0]))
            print("%4d/%d %-70.70s fps %5s level %5s change %6s load %5s %s" % (
                number, len(paths), name_of(path), "%.1f" % fps if fps else "-", "%.3f" % level if level is not None else "-",
                "%.4f" % change if change is not None else "-", "%.2f" % load if load is not None else "-",
                "yes" if good else "no"), file=sys.stderr, flush=True)

    measured = [row for row in rows if row[1] is not None]
    chosen = sorted(row[0] for row in rows if row[5])
    lines = ["| preset | frames/s | level | change | load (s) | default |", "|---|---|---|---|---|---|"]
    for row in rows:
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            row[0].replace("|", "/"), "%.1f" % row[1] if row[1] else "-", "%.3f" % row[2] if row[2] is not None else "-",
            "%.4f" % row[3] if row[3] is not None else "-", "%.2f" % row[4] if row[4] is not None else "-", "yes" if row[5] else "no"))
    fps_values = [row[1] for row in measured]
    summary = [
        "presets measured: %d of %d; bars mode in the same run: %.1f frames/s" % (len(rows), len(presets_in(options.presets)), bars_fps),
        "frames/s at %s: median %.1f, 10th percentile %.1f, 90th %.1f" % (
            options.size, statistics.median(fps_values), numpy.percentile(fps_values, 10), numpy.percentile(fps_values, 90))
        if fps_values else "no preset drew",
        "black or still: %d; failed to load: %d; default list: %d (at least %.0f frames/s and drawing)" % (
            sum(1 for row in rows if row[2] is not None and (row[2] < 0.03 or row[3] < 0.005)),
            sum(1 for row in rows if row[6]), len(chosen), options.min_fps),
    ]
    text = "\n".join(summary + [""] + lines) + "\n"
    print(text)
    if options.table:
        open(options.table, "w").write(text)
    if options.write_list:
        target = os.path.join(root, "Sources/DecibarApp/Visuals/Milkdrop/DefaultPresets.swift")
        body = ",\n".join("        %s" % swift_string(name) for name in chosen)
        open(target, "w").write(
            "/// The presets of projectm-data shown by default: those that drew (not black, not a still) at\n"
            "/// %.0f frames a second or more at %s on Mesa's software renderer, on two cores. Written by\n"
            "/// Scripts/measure-presets.py (%d of %d presets measured); names only.\n"
            "enum DefaultPresets {\n    static let names: [String] = [\n%s,\n    ]\n}\n" % (
                options.min_fps, options.size, len(rows), len(presets_in(options.presets)), body))


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


if __name__ == "__main__":
    main()
