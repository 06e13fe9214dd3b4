#!/usr/bin/env python3
"""`decibar render` against ffmpeg's own visual filters, same run, same song.

For each size (1280x720 and 1920x1080, 30 fps, H.264 veryfast + AAC as ffmpeg's defaults):
  spectrum: decibar --mode spectrum   against  showfreqs=mode=bar:fscale=log:rate=30
  bars:     decibar (bars)             against  showwaves=mode=cline:rate=30,fps=30
Each command's wall time and the peak resident memory of its whole process tree (decibar and
its ffmpeg child together), sampled every 10 ms from /proc. Runs alternate; the median of RUNS
is reported with the ratio decibar / ffmpeg (goal: time <= 0.8x for spectrum, memory <= 1x).

Usage: bench-compose.py DECIBAR SONG [RUNS] [SIZES]   (SIZES like 1280x720,1920x1080)
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def tree_rss(root):
    """Resident bytes of `root` and all its descendants."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
        except OSError:
            continue
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/statm") as statm:
                total += int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:
            pass
    return total


def measure(command, env=None):
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    peak = 0
    while process.poll() is None:
        peak = max(peak, tree_rss(process.pid))
        time.sleep(0.01)
    wall = time.monotonic() - start
    error = process.stderr.read().decode(errors="replace")
    if process.returncode != 0:
        sys.exit(f"bench-compose: {' '.join(command)} failed: {error.strip()}")
    return wall, peak


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    decibar, song = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    sizes = (sys.argv[4] if len(sys.argv) > 4 else "1280x720,1920x1080").split(",")
    work = tempfile.mkdtemp(prefix="dbcompose.")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
    encode = ["-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac"]
    rows = []
    for size in sizes:
        filters = {
            "spectrum": f"showfreqs=s={size}:mode=bar:fscale=log:rate=30,format=yuv420p",
            "bars": f"showwaves=s={size}:mode=cline:rate=30,fps=30,format=yuv420p",
        }
        for mode, graph in filters.items():
            ours_command = [decibar, "render", song, "-o", os.path.join(work, "ours.mp4"), "--size", size, "--fps", "30"]
            if mode == "spectrum":
                ours_command += ["--mode", "spectrum"]
            theirs_command = ["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", song, "-filter_complex", f"[0:a]{graph}[v]",
                              "-map", "[v]", "-map", "0:a"] + encode + [os.path.join(work, "theirs.mp4")]
            ours, theirs = [], []
            for _ in range(runs):
                ours.append(measure(ours_command, env))
                theirs.append(measure(theirs_command, env))
            wall_ours = statistics.median(w for w, _ in ours)
            wall_theirs = statistics.median(w for w, _ in theirs)
            memory_ours = statistics.median(m for _, m in ours) / 2**20
            memory_theirs = statistics.median(m for _, m in theirs) / 2**20
            name = "showfreqs" if mode == "spectrum" else "showwaves"
            rows.append((size, mode, name, wall_ours, wall_theirs, memory_ours, memory_theirs))
            print(f"{size} {mode:8}: decibar {wall_ours:6.1f} s {memory_ours:5.0f} MB | {name} {wall_theirs:6.1f} s "
                  f"{memory_theirs:5.0f} MB | time {wall_ours / wall_theirs:.2f}x, memory {memory_ours / memory_theirs:.2f}x"
                  f"   (runs: {' '.join(f'{w:.1f}' for w, _ in ours)} / {' '.join(f'{w:.1f}' for w, _ in theirs)})",
                  flush=True)
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
