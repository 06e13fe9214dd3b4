#!/usr/bin/env python3
"""Takes SHARE % of every core in bursts of BURST milliseconds, at SCHED_FIFO 99, the way a host
that steals a virtual machine's cores does: nothing in the machine runs during a burst, not even the
sound server's real-time threads. For reproducing, as root, what a busy host does to the timed tests.

Usage: host-steal.py [SHARE] [BURST]   (defaults: 25 % in 20 ms bursts; stop it with SIGTERM or ^C)
"""
import ctypes
import os
import random
import signal
import sys
import time


def burn(core, burst, period):
    # A burner outlives nothing: it ends with this script, however the script ends.
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() == 1:
        os._exit(0)
    os.sched_setaffinity(0, {core})
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(99))
    time.sleep(random.random() * period)  # the cores' bursts out of step, as a host's would be
    while True:
        end = time.monotonic() + burst
        while time.monotonic() < end:
            pass
        time.sleep(period - burst)


def main():
    share = float(sys.argv[1]) if len(sys.argv) > 1 else 25.0
    burst = (float(sys.argv[2]) if len(sys.argv) > 2 else 20.0) / 1000
    if not 0 < share < 95:
        sys.exit("host-steal: SHARE must be between 0 and 95 (the kernel keeps 5 % of each core from real-time threads)")
    children = []
    for core in sorted(os.sched_getaffinity(0)):
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            burn(core, burst, burst * 100 / share)
        children.append(pid)

    def stop(*_):
        for pid in children:
            os.kill(pid, signal.SIGKILL)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for pid in children:
        os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
