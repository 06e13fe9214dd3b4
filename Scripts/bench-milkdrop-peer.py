#!/usr/bin/env python3
"""Milkdrop side by side with projectM's own app: Debian's projectMSDL (package projectm-sdl, the
same libprojectM 3.1.12) and `decibar live --mode milkdrop`, one after the other, at the same window
size, on the same preset (each of ten from the default list, locked), hearing the same music, on a
private Xvfb (Mesa's software renderer) with music playing into a private PulseAudio.

Frame times are measured the same way for both, by the driver and not the app: Mesa's
GALLIUM_HUD=frametime with GALLIUM_HUD_DUMP_DIR writes the time between two presented frames, one
line a frame (the HUD itself is not drawn). The first --settle seconds are left out (loading, and
decibar finding its scale and rate). Per run: frames per second (1 / mean frame time) and the
frame-time ratio p90/p50 (1.0: every frame shown for the same time).

projectMSDL reads ~/.projectM/config.inp: each run gets a private HOME with projectm-data's
config.inp as shipped (a 220x125 mesh, 35 frames a second), only the window's size, the one-preset
folder, a preset duration of an hour and no smooth transition changed. With --matched it also draws
decibar's 32x24 mesh (libprojectM's default) at up to 60 frames a second. It hears PulseAudio's
default source, the null sink's monitor, which decibar taps too.

Usage: bench-milkdrop-peer.py [--binary PATH] [--sizes 1280x720,1920x1080] [--presets N] [--seconds S]
                              [--settle S] [--matched]
"""
import argparse
import os
import re
import signal
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from music_desk import MusicDesk

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
presets_root = "/usr/share/projectM/presets"


def default_names():
    text = open(os.path.join(root, "Sources/DecibarApp/Visuals/Milkdrop/DefaultPresets.swift")).read()
    return [name.encode().decode("unicode_escape") for name in re.findall(r'^\s+"((?:[^"\\]|\\.)*)",$', text, re.M)]


def first_file(name):
    found = []
    for base, _, names in os.walk(presets_root):
        found += [os.path.join(base, n) for n in names if n == name + ".milk"]
    return min(found, key=lambda path: os.path.relpath(path, presets_root)) if found else None


def peer_config(changed):
    """projectm-data's config.inp with these keys' values replaced (or added)."""
    lines, seen = [], set()
    for line in open("/usr/share/projectM/config.inp"):
        key = line.split("=")[0].strip()
        if "=" in line and not line.lstrip().startswith("#") and key in changed:
            lines.append("%s = %s\n" % (key, changed[key]))
            seen.add(key)
        else:
            lines.append(line)
    return "".join(lines) + "".join("%s = %s\n" % (key, value) for key, value in changed.items() if key not in seen)


def frame_times(command, environment, seconds, settle, folder):
    """Runs COMMAND for settle + seconds with the HUD dumping into a folder of its own; the frame
    times (seconds) after the first `settle` seconds' worth."""
    hud = tempfile.mkdtemp(dir=folder)
    run_environment = dict(environment, GALLIUM_HUD="frametime", GALLIUM_HUD_PERIOD="0", GALLIUM_HUD_VISIBLE="false",
                           GALLIUM_HUD_DUMP_DIR=hud)
    process = subprocess.Popen(command, env=run_environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        process.wait(timeout=settle + seconds)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    dumps = [os.path.join(hud, name) for name in os.listdir(hud)]
    if not dumps:
        return [], (process.stderr.read() or "").strip().splitlines()[-1:]
    times = [float(line) / 1000 for line in open(dumps[0]) if line.strip()]
    shutil.rmtree(hud, ignore_errors=True)
    elapsed, kept = 0.0, []
    for value in times:
        elapsed += value
        if elapsed > settle:
            kept.append(value)
    return kept, []


def figures(times):
    if len(times) < 10:
        return None
    ordered = sorted(times)
    median = ordered[len(ordered) // 2]
    return 1 / statistics.fmean(times), ordered[int(len(ordered) * 0.9)] / median


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(root, ".build/release/decibar"))
    parser.add_argument("--sizes", default="1280x720,1920x1080")
    parser.add_argument("--presets", type=int, default=10, help="presets of the default list, spread evenly (default 10)")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--settle", type=float, default=4)
    parser.add_argument("--matched", action="store_true", help="projectMSDL with decibar's mesh and up to 60 frames/s")
    options = parser.parse_args()
    if not shutil.which("projectMSDL"):
        sys.exit("bench-milkdrop-peer: projectMSDL is not installed (apt install projectm-sdl)")
    names = default_names()
    count = min(options.presets, len(names))
    chosen = [names[int(index * len(names) / count)] for index in range(count)]
    with MusicDesk("decibar-bench-peer-") as desk:
        environment = dict(desk.environment)
        environment.pop("WAYLAND_DISPLAY", None)
        print("machine: %d cores (%s), Mesa llvmpipe on Xvfb; %s s measured after %s s; projectMSDL %s" % (
            os.cpu_count(), open("/proc/cpuinfo").read().split("model name")[1].split(":")[1].split("\n")[0].strip(),
            options.seconds, options.settle, "with decibar's mesh, up to 60 frames/s" if options.matched else "as shipped"))
        for size in options.sizes.split(","):
            width, height = size.split("x")
            print("\n%s\n\n| preset | projectMSDL frames/s | projectMSDL p90/p50 | decibar frames/s | decibar p90/p50 |" % size)
            print("|---|---|---|---|---|")
            rows = []
            for name in chosen:
                path = first_file(name)
                if not path:
                    continue
                one = tempfile.mkdtemp(dir=desk.folder)
                os.symlink(path, os.path.join(one, os.path.basename(path)))
                home = tempfile.mkdtemp(dir=desk.folder)
                os.makedirs(os.path.join(home, ".projectM"))
                changed = {"Window Width": width, "Window Height": height, "Fullscreen": "false", "Preset Path": one,
                           "Preset Duration": "3600", "Smooth Transition Duration": "0", "Hard Cut Sensitivity": "1000"}
                if options.matched:
                    changed.update({"Mesh X": "32", "Mesh Y": "24", "FPS": "60"})
                with open(os.path.join(home, ".projectM", "config.inp"), "w") as config:
                    config.write(peer_config(changed))
                peer_times, peer_said = frame_times(["projectMSDL"], dict(environment, HOME=home), options.seconds, options.settle, desk.folder)
                ours_times, ours_said = frame_times(
                    [options.binary, "live", "--mode", "milkdrop", "--preset-dir", one, "--preset-duration", "3600", "--size", size,
                     "--display-fps", "60", "--exit-after", str(options.settle + options.seconds)],
                    environment, options.seconds, options.settle, desk.folder)
                peer, ours = figures(peer_times), figures(ours_times)
                rows.append((name, peer, ours))
                print("| %s | %s | %s | %s | %s |" % (
                    name.replace("|", "/"), "%.1f" % peer[0] if peer else "-", "%.2f" % peer[1] if peer else " ".join(peer_said) or "-",
                    "%.1f" % ours[0] if ours else "-", "%.2f" % ours[1] if ours else " ".join(ours_said) or "-"), flush=True)
            both = [(peer, ours) for _, peer, ours in rows if peer and ours]
            if both:
                peer_fps = statistics.median(p[0] for p, _ in both)
                ours_fps = statistics.median(o[0] for _, o in both)
                print("| **median** | **%.1f** | **%.2f** | **%.1f** | **%.2f** |" % (
                    peer_fps, statistics.median(p[1] for p, _ in both), ours_fps, statistics.median(o[1] for _, o in both)))
                print("\ndecibar / projectMSDL frames per second at the median: %.2fx (goal: at least 2x); "
                      "decibar's p90/p50 at its worst: %.2f (goal: at most 1.3)" % (ours_fps / peer_fps, max(o[1] for _, o in both)))


if __name__ == "__main__":
    main()
