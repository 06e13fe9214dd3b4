#!/usr/bin/env python3
"""Plots a soak run (Scripts/soak.sh) to OUT_DIR/soak.png: RSS with the second half's fitted slope,
open fds and threads, and the subscriber's level lines per interval, with every output switch and
sound server restart marked. Reads soak.csv, events.csv and run.json from OUT_DIR.
Usage: soak-plot.py OUT_DIR [--title TEXT]"""
import argparse
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

parser = argparse.ArgumentParser(description="Plots a soak run's figures.")
parser.add_argument("out")
parser.add_argument("--title", default="decibar daemon soak")
args = parser.parse_args()


def table(name):
    path = os.path.join(args.out, name)
    return list(csv.DictReader(open(path))) if os.path.exists(path) else []


rows = table("soak.csv")
events = table("events.csv")
if len(rows) < 2:
    sys.exit(f"soak-plot: fewer than two samples in {os.path.join(args.out, 'soak.csv')}")
run = json.load(open(os.path.join(args.out, "run.json")))
duration, rate = run["duration"], run["rate"]

# Minutes read better than seconds on a half-hour axis; seconds on a short run.
scale, unit = (60.0, "min") if duration >= 600 else (1.0, "s")
t = [float(r["seconds"]) / scale for r in rows]
mib = [int(r["rss_kib"]) / 1024 for r in rows]
anon = [int(r["rss_anon_kib"]) / 1024 for r in rows]

figure, (memory, handles, lines) = plt.subplots(3, 1, figsize=(12, 9.5), sharex=True,
                                                gridspec_kw={"height_ratios": [1.3, 1, 1]})
figure.suptitle(args.title, fontsize=13, fontweight="bold")

# RSS, with the fitted line over the second half (what the pass/fail bound uses). The anonymous
# part (heap, malloc arenas) is on the right axis, at the same MiB per pixel but drawn below it, so
# both slopes read alike while the shared libraries' pages do not squash the growth.
memory.plot(t, mib, "o-", color="tab:blue", markersize=3, label="RSS (VmRSS, left axis)")
span = max(max(mib) - min(mib), max(anon) - min(anon), 4.0)
memory.set_ylim(min(mib) - 0.9 * span, min(mib) + 1.5 * span)
anonymous = memory.twinx()
anonymous.plot(t, anon, "-", color="tab:brown", alpha=0.8, linewidth=1.4)
anonymous.set_ylim(min(anon) - 0.1 * span, min(anon) + 2.3 * span)
anonymous.set_ylabel("anonymous MiB", color="tab:brown")
anonymous.tick_params(axis="y", colors="tab:brown")
memory.plot([], [], "-", color="tab:brown", alpha=0.7, label="of which anonymous: heap, malloc arenas (right axis)")
second = [i for i, r in enumerate(rows) if float(r["seconds"]) >= duration / 2]
if len(second) >= 2:
    xs, ys = [float(rows[i]["seconds"]) for i in second], [mib[i] for i in second]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    fit = [my + slope * (x - mx) for x in (xs[0], xs[-1])]
    grown = slope * (xs[-1] - xs[0])
    memory.plot([xs[0] / scale, xs[-1] / scale], fit, "--", color="tab:red", linewidth=2,
                label=f"second half fit: {grown:+.2f} MiB ({slope * 3600:+.2f} MiB/h; bound {run['rss_mib']} MiB)")
    memory.axvspan(xs[0] / scale, xs[-1] / scale, color="tab:blue", alpha=0.05, label="second half (judged)")
memory.set_ylabel("RSS MiB", color="tab:blue")
memory.set_title("Daemon memory", loc="left", fontsize=11)
memory.legend(loc="upper left", fontsize=9, ncol=2)

# fds and threads; the track being played is noted since the video's decoder adds threads.
fds = [int(r["fds"]) for r in rows]
threads = [int(r["threads"]) for r in rows]
handles.plot(t, fds, "o-", color="tab:green", markersize=3, label="open fds")
handles.plot(t, threads, "s-", color="tab:purple", markersize=3, label="threads")
video = [i for i, r in enumerate(rows) if r["track"] == str(run.get("video_track", ""))]
if video:
    handles.plot([t[i] for i in video], [threads[i] for i in video], "s", color="tab:orange", markersize=6,
                 fillstyle="none", label="sampled while the video plays")
top = max(fds + threads)
handles.set_ylim(0, top * 1.6 + 2)
handles.set_ylabel("count")
handles.set_title("Open file descriptors and threads", loc="left", fontsize=11)

# Subscriber lines per interval against what 30 a second gives.
got = [(float(a["seconds"]), float(b["seconds"]), int(b["lines"]), int(b["audible_lines"]), int(b["expected_lines"]))
       for a, b in zip(rows, rows[1:]) if b["lines"] != ""]
starts = [a / scale for a, _, _, _, _ in got]
widths = [(b - a) / scale * 0.9 for a, b, _, _, _ in got]
lines.bar(starts, [g[2] for g in got], widths, align="edge", facecolor="none", edgecolor="tab:blue",
          linewidth=1.0, zorder=3, label="level lines received")
lines.bar(starts, [g[3] for g in got], widths, align="edge", color="tab:green", alpha=0.75,
          label="of which audible (peak > -50 dBFS): the player is heard")
expected = max((g[4] for g in got), default=rate * run["sample"])
lines.axhline(expected, color="black", linewidth=1, linestyle="--", label=f"expected ({rate}/s)")
lines.axhline(expected * run["lines_percent"] / 100, color="tab:red", linewidth=1, linestyle=":",
              label=f"bound ({run['lines_percent']:g} %, outside restarts)")
lines.set_ylim(0, expected * 1.6)
lines.set_ylabel(f"lines per {run['sample']} s")
lines.set_xlabel(f"time since start ({unit})")
lines.set_title("Levels subscriber", loc="left", fontsize=11)
lines.legend(loc="upper left", fontsize=9, ncol=2)

# Switches and restarts in every panel; one not followed is red and named in the top panel.
marked = set()
for event in events:
    x = float(event["seconds"]) / scale
    failed = event["followed"] != "yes"
    if event["kind"] == "restart":
        style = dict(color="tab:red" if failed else "tab:orange", linewidth=1.8, linestyle="-")
        label = "restart (not followed)" if failed else "sound server restart"
    else:
        style = dict(color="tab:red" if failed else "grey", linewidth=0.8, linestyle=":")
        label = "switch (not followed)" if failed else "output switch"
    if event["kind"] == "restart":
        end = float(event["end_seconds"]) / scale
        for axis in (memory, handles, lines):
            axis.axvspan(x, max(end, x + 0.002 * duration / scale), color=style["color"], alpha=0.12)
    for axis in (memory, handles, lines):
        axis.axvline(x, **style, label=label if (axis is handles and label not in marked) else None)
    marked.add(label)
    if failed:
        memory.annotate(f"{event['kind']} not followed", (x, memory.get_ylim()[0]), xytext=(3, 6),
                        textcoords="offset points", color="tab:red", fontsize=8, rotation=90, va="bottom")
handles.legend(loc="upper left", fontsize=9, ncol=3)
for axis in (memory, handles, lines):
    axis.grid(True, alpha=0.3)
    axis.set_xlim(-0.01 * duration / scale, duration / scale * 1.01)

last = rows[-1]
figure.text(0.01, 0.005, f"{run['date']}, {run['cores']} cores; sample every {run['sample']} s, switch every "
            f"{run['switch']} s, restart every {run['restart']} s; underruns {last['underruns']}, dropouts "
            f"{last['dropouts']}, late video frames {last['video_dropped']}, level events dropped {last['events_dropped']}",
            fontsize=8, color="dimgrey")
figure.tight_layout(rect=(0, 0.02, 1, 0.97))
figure.savefig(os.path.join(args.out, "soak.png"), dpi=110)
