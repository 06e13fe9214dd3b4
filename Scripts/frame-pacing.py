#!/usr/bin/env python3
"""How well a window kept its frame pacing, from a `--frame-log` (one stamp per frame, taken right
after the buffer swap).

  frame-pacing.py LOG [SKIP] [--from-sound]

Skips the first SKIP frames (default 60: the window's first second, shader compiles, first tap
buffers); with --from-sound, the first SKIP from the first frame that drew sound (a logged value
above 0): a window at rest in silence draws no frames, and the wait for the music is no late frame. Slots are one fixed grid for the whole run, as a display's refresh is: its period fitted
to the frame times, its phase their median offset. A frame is on time when it lands within 2 ms of
its slot; a slot that got no frame of its own counts as a late frame. Prints one line: the share on
time (the goal is >= 99 %), the shares within 0.5, 1 and 4 ms, the median and p99 distance to the
slot, and the slots missed.
"""
import statistics
import sys


def main():
    arguments = [a for a in sys.argv[1:] if a != "--from-sound"]
    skip = int(arguments[1]) if len(arguments) > 1 else 60
    frames = [line.split() for line in open(arguments[0])]
    if "--from-sound" in sys.argv:
        sounding = next((i for i, f in enumerate(frames) if len(f) > 1 and float(f[1]) > 0), len(frames))
        frames = frames[sounding:]
    times = [float(f[0]) for f in frames][skip:]
    if len(times) < 10:
        print(f"frame-pacing: only {len(times)} frames after the first {skip}", file=sys.stderr)
        sys.exit(1)
    # The grid: slot k at phase + k * period, fitted to the frames (least squares over slot numbers,
    # then the median offset).
    period = statistics.median(b - a for a, b in zip(times, times[1:]))
    for _ in range(3):
        slots = [round((t - times[0]) / period) for t in times]
        n = len(slots)
        mean_s = sum(slots) / n
        mean_t = sum(times) / n
        period = sum((s - mean_s) * (t - mean_t) for s, t in zip(slots, times)) / sum((s - mean_s) ** 2 for s in slots)
    offsets = [t - times[0] - s * period for t, s in zip(times, slots)]
    phase = statistics.median(offsets)
    distances = [abs(offset - phase) * 1000 for offset in offsets]
    spanned = slots[-1] - slots[0] + 1
    # A slot with no frame of its own (skipped, or two frames in one) counts as a late frame.
    missed = spanned - len(set(slots))

    def share(limit):
        return 100 * sum(1 for d in distances if d <= limit) / (len(distances) + missed)

    ordered = sorted(distances)
    print(f"{len(times)} frames over {spanned} slots of {1000 * period:.3f} ms: within 2 ms {share(2):.2f} %"
          f" (0.5 ms {share(0.5):.1f} %, 1 ms {share(1):.1f} %, 4 ms {share(4):.1f} %);"
          f" distance median {ordered[len(ordered) // 2]:.2f} ms, p99 {ordered[int(0.99 * len(ordered))]:.2f} ms; {missed} slots missed")


if __name__ == "__main__":
    main()
