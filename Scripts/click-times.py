#!/usr/bin/env python3
"""Prints when each click arrives on a PulseAudio source, one CLOCK_MONOTONIC time per line.

  click-times.py SOURCE

Records SOURCE with parec in 2 ms fragments; a click is the first sample above -26 dBFS after at
least 100 ms below it. Its time is on the recording's sample clock: the start of the recording is
the lowest `arrival - samples so far / rate` of the last two seconds (a fragment is never read
before its last sample was captured, but may be read late), and a click is that plus its sample's
place. An independent reference for how late beats are told; a fragment read late (this reader
kept from a core) does not make it read late.
"""
import array
import collections
import os
import subprocess
import sys
import time

RATE = 48000
THRESHOLD = int(0.05 * 32768)
QUIET = int(0.1 * RATE)


def main():
    source = sys.argv[1]
    # A reference is stamped when it reads: a reader kept waiting for a core stamps late, and what it
    # measures then looks early. Real-time where allowed (parec inherits it), below the audio's own
    # threads; as it was where not.
    try:
        os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(2))
    except OSError:
        pass
    recorder = subprocess.Popen(["parec", "-d", source, "--format=s16le", "--channels=1", f"--rate={RATE}",
                                 "--raw", "--latency-msec=2"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    pending = b""
    quiet = QUIET
    position = 0  # samples read so far
    starts = collections.deque()  # (arrival, arrival - position / RATE) of the last two seconds
    while True:
        chunk = recorder.stdout.read1(65536)
        arrived = time.monotonic()
        if not chunk:
            break
        pending += chunk
        whole = len(pending) - len(pending) % 2
        samples = array.array("h", pending[:whole])
        pending = pending[whole:]
        starts.append((arrived, arrived - (position + len(samples)) / RATE))
        while starts[0][0] < arrived - 2:
            starts.popleft()
        start = min(offset for _, offset in starts)
        for index, sample in enumerate(samples):
            if abs(sample) >= THRESHOLD:
                if quiet >= QUIET:
                    print(f"{start + (position + index) / RATE:.6f}", flush=True)
                quiet = 0
            else:
                quiet += 1
        position += len(samples)


if __name__ == "__main__":
    main()
