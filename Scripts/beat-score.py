#!/usr/bin/env python3
"""Scores beat times against a reference: F-measure at +-70 ms (each reference beat matched at
most once, nearest first), the median offset of the matches, from --from seconds on.

  beat-score.py REFERENCE FOUND [--from 5] [--tolerance 0.07]

Each file holds one time per line (the first number of the line; JSON lines with "t" and "beat"
from `decibar levels --mode beats` are read too). Prints: f precision recall median_offset_ms.
"""
import argparse
import json
import statistics


def read_times(path):
    times = []
    with open(path) as lines:
        for line in lines:
            line = line.strip()
            if not line:
                continue
            if line.startswith("{"):
                event = json.loads(line)
                if event.get("beat"):
                    times.append(float(event["t"]))
            else:
                times.append(float(line.split()[0]))
    return times


def score(reference, found, tolerance):
    pairs = sorted((abs(f - r), i, j) for i, r in enumerate(reference) for j, f in enumerate(found) if abs(f - r) <= tolerance)
    used_reference, used_found, offsets = set(), set(), []
    for _, i, j in pairs:
        if i in used_reference or j in used_found:
            continue
        used_reference.add(i)
        used_found.add(j)
        offsets.append(found[j] - reference[i])
    matched = len(offsets)
    precision = matched / len(found) if found else 0.0
    recall = matched / len(reference) if reference else 0.0
    f = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return f, precision, recall, (statistics.median(offsets) * 1000 if offsets else float("nan"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference")
    parser.add_argument("found")
    parser.add_argument("--from", dest="start", type=float, default=5.0)
    parser.add_argument("--tolerance", type=float, default=0.07)
    args = parser.parse_args()
    # Beats within the tolerance of the start count on both sides, so an edge does not decide.
    reference = [t for t in read_times(args.reference) if t >= args.start]
    found = [t for t in read_times(args.found) if t >= args.start - args.tolerance]
    if reference:
        found = [t for t in found if t >= reference[0] - args.tolerance]
    f, precision, recall, offset = score(reference, found, args.tolerance)
    print(f"{f:.3f} {precision:.3f} {recall:.3f} {offset:.1f}")


if __name__ == "__main__":
    main()
