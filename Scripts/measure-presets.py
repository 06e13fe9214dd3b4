#!/usr/bin/env python3
"""Measures every installed Milkdrop preset by whether it draws right, and writes the default playlist.

Each preset is rendered offline (`decibar render --mode milkdrop`, frame-exact: the same result on
any machine) from a synthesized song, 4 s at 15 fps and 320x180 (the picture's 320x100 read back), and judged:
  - loads:    decibar exits 0 and does not skip it (libprojectM parsed it and its shaders compiled);
  - textures: it names no texture that is installed nowhere (decibar says "installed nowhere");
  - black:    the mean level of the last frame is under 3 %;
  - white:    a white still: over 90 % and changing under 0.5 %;
  - still:    frames 1 s apart (2-3 s and 3-4 s) differ by under 0.5 % on average, either pair;
  - slow:     the whole render took over --max-seconds (set from the figures: see docs/benchmarks.md).
Speed on this machine is not a criterion: the window paces itself and scales the picture at run time.

Results are kept in measure-presets.cache beside this script (one JSON line a preset, keyed by its
path, size and modification time and by the contents of Decibar's Milkdrop plug-in and of
libprojectM), so an interrupted run resumes where it stopped and can be run in parts (--limit).
The table of figures goes to stdout (and --table); --write-list writes the names that passed into
Sources/DecibarApp/Visuals/Milkdrop/DefaultPresets.swift (a name in several packs counts as its
first file by path, the one the playlist uses).

Usage: measure-presets.py [--binary PATH] [--presets DIR] [--limit N] [--jobs N] [--max-seconds S]
                          [--table FILE] [--write-list]
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
cache_path = os.path.join(here, "measure-presets.cache")
size = (320, 180)
# The picture's part of the frame: the scrubber and its text are below it.
picture_rows = 100
fps = 15
seconds = 4
reasons = ("loads", "textures", "black", "white", "still", "slow")


def presets_in(folder):
    found = []
    for base, _, names in os.walk(folder):
        found += [os.path.join(base, name) for name in names if name.lower().endswith(".milk")]
    return sorted(found, key=lambda path: os.path.relpath(path, folder))


def name_of(path):
    name = os.path.basename(path)
    return name[:-5] if name.lower().endswith(".milk") else name


def key_of(path, binary_key):
    status = os.stat(path)
    return "%s|%d|%d|%s" % (path, status.st_size, int(status.st_mtime), binary_key)


def measure(binary, music, path):
    """The figures of one preset: what decibar said, the render's seconds, level and change."""
    folder = tempfile.mkdtemp(prefix="decibar-preset-")
    try:
        video = os.path.join(folder, "frames.mp4")
        started = time.monotonic()
        result = subprocess.run([binary, "render", music, "--mode", "milkdrop", "--preset", path, "--duration", str(seconds),
                                 "--fps", str(fps), "--size", "%dx%d" % size, "--video-layout", "off", "-o", video],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=dict(os.environ, DISPLAY="", WAYLAND_DISPLAY=""), timeout=120)
        elapsed = time.monotonic() - started
        said = [line for line in result.stderr.splitlines() if not line.startswith("decibar: rendered")]
        row = {"status": result.returncode, "said": said[:3], "seconds": round(elapsed, 3)}
        if result.returncode != 0:
            return row
        # Frames at 2, 3 and 4 s (the last), in gray.
        wanted = [2 * fps - 1, 3 * fps - 1, seconds * fps - 1]
        select = "+".join("eq(n\\,%d)" % index for index in wanted)
        data = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", video, "-vf",
                               "select=%s,crop=%d:%d:0:0" % (select, size[0], picture_rows), "-vsync", "0", "-f", "rawvideo",
                               "-pix_fmt", "gray", "-"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        frames = numpy.frombuffer(data, dtype=numpy.uint8).astype(numpy.float64).reshape(-1, size[0] * picture_rows) / 255
        if len(frames) != 3:
            row["status"] = -1
            row["said"] = ["%d frames read back" % len(frames)]
            return row
        row["level"] = round(float(frames[2].mean()), 4)
        row["change"] = round(float(min(numpy.abs(frames[1] - frames[0]).mean(), numpy.abs(frames[2] - frames[1]).mean())), 5)
        return row
    except subprocess.TimeoutExpired:
        return {"status": -9, "said": ["did not finish in 120 s"], "seconds": 120.0}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def failures(row, max_seconds):
    """Which of the criteria a preset fails, in `reasons`' terms (empty: it draws right)."""
    if row["status"] != 0 or any("skipped" in line for line in row["said"]):
        return ["loads"]
    found = []
    if any("installed nowhere" in line for line in row["said"]):
        found.append("textures")
    if row["level"] < 0.03:
        found.append("black")
    elif row["level"] > 0.9 and row["change"] < 0.005:
        found.append("white")
    elif row["change"] < 0.005:
        found.append("still")
    if row["seconds"] > max_seconds:
        found.append("slow")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(root, ".build/release/decibar"))
    parser.add_argument("--presets", default="/usr/share/projectM/presets")
    parser.add_argument("--limit", type=int, help="measure at most N presets not yet in the cache, then stop")
    parser.add_argument("--jobs", type=int, default=1, help="renders at once (default 1)")
    parser.add_argument("--max-seconds", type=float, default=6.0, help="a render slower than this fails as slow (default 6)")
    parser.add_argument("--table")
    parser.add_argument("--write-list", action="store_true")
    options = parser.parse_args()

    paths = presets_in(options.presets)
    if not paths:
        sys.exit("measure-presets: no presets in %s (apt install projectm-data)" % options.presets)
    if not os.access(options.binary, os.X_OK):
        sys.exit("measure-presets: no decibar at %s (make release)" % options.binary)
    # Figures hold for one Milkdrop plug-in (what loads and draws a preset, over libprojectM) and
    # one libprojectM; the rest of decibar only hands them frames.
    digest = hashlib.sha1()
    for part in (os.path.join(os.path.dirname(options.binary), "libdecibar-milkdrop.so"), "/usr/lib/x86_64-linux-gnu/libprojectM.so.3"):
        if os.path.exists(part):
            digest.update(open(os.path.realpath(part), "rb").read())
    binary_key = digest.hexdigest()[:12]
    cache = {}
    if os.path.exists(cache_path):
        for line in open(cache_path):
            try:
                entry = json.loads(line)
                cache[entry["key"]] = entry["row"]
            except (ValueError, KeyError):
                continue
    keys = {path: key_of(path, binary_key) for path in paths}
    todo = [path for path in paths if keys[path] not in cache][:options.limit]
    print("measure-presets: %d presets, %d measured before, %d to measure now" % (len(paths), len(paths) - len(
        [p for p in paths if keys[p] not in cache]), len(todo)), file=sys.stderr, flush=True)
    if todo:
        with tempfile.TemporaryDirectory(prefix="decibar-presets-") as folder:
            music = os.path.join(folder, "music.wav")
            subprocess.run(["bash", os.path.join(here, "make-music.sh"), music, "1", "-14"], check=True, stdout=subprocess.DEVNULL)
            with open(cache_path, "a") as out, concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
                started = time.monotonic()
                for number, (path, row) in enumerate(zip(todo, pool.map(lambda p: measure(options.binary, music, p), todo)), 1):
                    cache[keys[path]] = row
                    out.write(json.dumps({"key": keys[path], "row": row}) + "\n")
                    out.flush()
                    left = (time.monotonic() - started) / number * (len(todo) - number)
                    print("%4d/%d %-60.60s %5.2f s %s (%.0f min left)" % (
                        number, len(todo), name_of(path), row["seconds"], ",".join(failures(row, options.max_seconds)) or "ok", left / 60),
                        file=sys.stderr, flush=True)

    rows = [(path, cache[keys[path]]) for path in paths if keys[path] in cache]
    counts = {reason: 0 for reason in reasons}
    passed = set()
    for path, row in rows:
        failed = failures(row, options.max_seconds)
        for reason in failed:
            counts[reason] += 1
        if not failed:
            passed.add(path)
    # A name is the list's when its first file by path (the one the playlist uses) passed.
    first = {}
    for path in paths:
        first.setdefault(name_of(path), path)
    chosen = sorted(name for name, path in first.items() if path in passed)
    timings = sorted(row["seconds"] for _, row in rows if row["status"] == 0)
    lines = [
        "presets measured: %d of %d (%d names); drew right: %d files, %d names (the default list)" % (
            len(rows), len(paths), len(first), len(passed), len(chosen)),
        "render of %d s at %dx%d, %d fps: median %.2f s, 90th percentile %.2f, 99th %.2f, slowest %.2f (bound %.1f)" % (
            seconds, size[0], size[1], fps, statistics.median(timings), numpy.percentile(timings, 90),
            numpy.percentile(timings, 99), timings[-1], options.max_seconds) if timings else "no render finished",
        "",
        "| failed on | presets | what it means |",
        "|---|---|---|",
    ]
    meaning = {
        "loads": "libprojectM did not load it or a shader did not compile (skipped)",
        "textures": "names a texture installed nowhere (drawn with a stand-in)",
        "black": "the last frame's mean level under 3 %",
        "white": "a white still (over 90 %, changing under 0.5 %)",
        "still": "frames 1 s apart differ by under 0.5 %",
        "slow": "the render took over %.1f s" % options.max_seconds,
    }
    for reason in reasons:
        lines.append("| %s | %d | %s |" % (reason, counts[reason], meaning[reason]))
    text = "\n".join(lines) + "\n"
    print(text)
    if options.table:
        open(options.table, "w").write(text)
    if options.write_list:
        if len(rows) < len(paths):
            sys.exit("measure-presets: %d presets are not measured yet; the list is written once all are" % (len(paths) - len(rows)))
        target = os.path.join(root, "Sources/DecibarApp/Visuals/Milkdrop/DefaultPresets.swift")
        body = "\n".join("        %s," % swift_string(name) for name in chosen)
        open(target, "w").write(
            "/// The presets of projectm-data shown by default: those that draw right (they load, their\n"
            "/// shaders compile, they name no missing texture, they are not black, white or still), measured\n"
            "/// by an offline render with Scripts/measure-presets.py: %d of %d names. Written by it; names only.\n"
            "enum DefaultPresets {\n    static let names: [String] = [\n%s\n    ]\n}\n" % (len(chosen), len(first), body))


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


if __name__ == "__main__":
    main()
