#!/usr/bin/env python3
"""Runs the built test suite one test at a time, then names what failed at the very end.

A test that failed is run once more on its own: many tests time real audio on a shared two-core
machine, and a moment of starvation can push one past its mark. The suite passes only if every such
test really ran again (all its cases) and passed; the ones that needed a second run are listed last
either way, those the host starved (below) apart from the rest, as not the tests' own. More than
--max-reruns failures are not run again (that is a breakage, not a slow moment), unless the host
took the cores: a failure while the hypervisor took at least 5 % of them (steal, sampled from
/proc/stat), or 20 % in one half second of the test, is run again but not counted toward that
limit, and when the host took as much during its second run too, it runs again (at most twice
more), each time once the host has taken less for 5 s (or after two minutes). The timed tests hold
on a quiet host, not on one that takes a quarter of both cores for tens of milliseconds at a time.

Results come from Swift Testing's event stream (JSON lines), not from its console text or xUnit
file: the stream names each test by its full ID (module.Suite/function(labels:)/File.swift:line:column),
which is exactly what a second run's --filter has to match, parameterized tests included.

Tests matching --beside REGEX run at the same time as the rest, in a second test process at the
lowest CPU priority and in a test environment of its own (Scripts/with-test-env.sh; with
--beside-here, in the runner's own, as the in-process tests need): tests that time nothing, beside
the ones that time real audio and frames. Their output follows the others'. A --filter narrows the
others only: REGEX is what the second lane runs, so keep it within the filter. Tests matching
--alone REGEX (with --beside) run last, once both lanes have ended: the timed tests that need the
whole machine, which a lane beside breaks even at its lowest priority.
Each test's start and end are read from the events (wall-clock instants), so a failure is shown
beside what the other lane was running then, and the whole timeline of both lanes is written to
--timeline FILE.

A run that leaves a process behind fails: the runner makes itself the reaper of every process the
tests start (PR_SET_CHILD_SUBREAPER), so whatever a test started and did not stop is its child
once the tests end; it names each one, with its blocked signals, and kills it. Those that end
during the run (a private PulseAudio forks away from its test) are reaped within a second.

Every scratch folder of the run is made in one folder of its own, /tmp/dbr.XXXXXX (TMPDIR for the
tests; the folders of the private servers, compositors and buses they start are made there too).
At the end of the run, even after a test process died without cleaning up, whatever still runs
from it is stopped and named: the processes a PID file there names (pipewire.pid, sway.pid ...),
and any whose command line or environment names it. The folder is then removed, and the scratch
folders left in it are named. A run that was itself killed leaves its folder behind with
runner.pid in it: the next run sweeps it the same way before it starts.

Usage: run-tests.py [--tests XCTEST] [--scratch-path DIR] [--max-reruns N] [--time-limit MINUTES]
                    [--beside REGEX [--beside-here] [--alone REGEX]] [Swift Testing options such as --filter REGEX or --skip REGEX ...]
"""
import argparse
import ctypes
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def say(text):
    print(f"run-tests: {text}", flush=True)


class MachineLoad:
    """The machine's own CPU accounting, sampled every half second: how busy both cores were and how
    much time the hypervisor took from them (steal). A timed test that failed while the host took the
    cores away failed for the host's reasons; the timeline and the failure report say which it was."""

    def __init__(self):
        self.samples = []  # (wall-clock seconds, busy jiffies, steal jiffies, total jiffies)
        self.stopped = threading.Event()
        threading.Thread(target=self._sample, daemon=True).start()

    @staticmethod
    def _read():
        try:
            with open("/proc/stat", encoding="ascii") as stat:
                fields = [int(value) for value in stat.readline().split()[1:9]]
        except (OSError, ValueError):
            return None
        user, nice, system, idle, iowait, irq, softirq, steal = fields
        # The runner's own test adds steal of its making through this file (jiffies so far).
        extra = 0
        if os.environ.get("RUN_TESTS_EXTRA_STEAL"):
            try:
                with open(os.environ["RUN_TESTS_EXTRA_STEAL"], encoding="ascii") as added:
                    extra = int(added.read().strip() or 0)
            except (OSError, ValueError):
                pass
        return user + nice + system + irq + softirq, steal + extra, sum(fields) + extra

    def _sample(self):
        while not self.stopped.is_set():
            reading = self._read()
            if reading:
                self.samples.append((time.time(),) + reading)
            self.stopped.wait(0.5)

    def between(self, start, end):
        """Percent of both cores busy, and stolen, from start to end (None if not sampled)."""
        # The samples around the span: the last at or before its start, the first at or after its end.
        samples = list(self.samples)
        if not samples or samples[-1][0] < end:
            reading = self._read()
            if reading:
                samples.append((time.time(),) + reading)
        before = [sample for sample in samples if sample[0] <= start]
        after = [sample for sample in samples if sample[0] >= end]
        first = before[-1] if before else (samples[0] if samples else None)
        last = after[0] if after else (samples[-1] if samples else None)
        if first is None or last is None or last[3] <= first[3]:
            return None
        total = last[3] - first[3]
        # A stall of tens of milliseconds vanishes in a long test's mean: the worst half second too.
        span = [sample for sample in samples if first[0] <= sample[0] <= last[0]]
        worst = max((100.0 * (b[2] - a[2]) / (b[3] - a[3]) for a, b in zip(span, span[1:]) if b[3] > a[3]), default=0.0)
        return 100.0 * (last[1] - first[1]) / total, 100.0 * (last[2] - first[2]) / total, worst

    def wait_until_quiet(self, share, limit, window=5.0):
        """Waits until the host took less than `share` % over the last `window` seconds, at most
        `limit` seconds; says what it found."""
        began = time.time()
        while True:
            now = time.time()
            measured = self.between(now - window, now) if now - began >= window else None
            if measured is not None and measured[1] < share:
                return f"after {now - began:.0f} s, the host taking {measured[1]:.1f} %"
            if now - began >= limit:
                taken = f"{measured[1]:.1f} %" if measured else "an unknown share"
                return f"the host still took {taken} after {limit:.0f} s"
            time.sleep(0.5)

    def text(self, start, end):
        load = self.between(start, end)
        return "" if load is None else \
            f"; the cores {load[0]:.0f} % busy, {load[1]:.1f} % taken by the host (at most {load[2]:.0f} % in half a second)"


def exact_filter(test_id):
    """A --filter regex that matches this test ID and no other (Swift Testing matches IDs as regexes)."""
    return "^" + re.sub(r"([\\.^$|?*+()\[\]{}])", r"\\\1", test_id) + "$"


class Run:
    """One run of the test binary, read back from its event stream."""

    def __init__(self, status, events, timed_out):
        self.status = status
        self.timed_out = timed_out
        self.functions = {}   # test ID -> display name, for tests (not suites)
        self.started = []     # function IDs in the order they started
        self.ended = set()
        self.skipped = set()
        self.cases = {}       # function ID -> test cases started
        self.issues = {}      # test ID (or "" outside any test) -> first message
        self.issue_counts = {}
        self.finished = False
        self.times = {}       # test ID -> [start, end] wall-clock seconds (end None while running)
        for record in events:
            payload = record.get("payload", {})
            instant = (payload.get("instant") or {}).get("since1970")
            if record.get("kind") == "test":
                if payload.get("kind") == "function":
                    self.functions[payload["id"]] = payload.get("displayName") or payload.get("name", "")
                continue
            kind = payload.get("kind")
            test_id = payload.get("testID", "")
            if kind == "testStarted" and test_id in self.functions:
                self.started.append(test_id)
                self.times[test_id] = [instant, None]
            elif kind == "testEnded":
                self.ended.add(test_id)
                if test_id in self.times:
                    self.times[test_id][1] = instant
            elif kind == "testSkipped":
                self.skipped.add(test_id)
            elif kind == "testCaseStarted":
                self.cases[test_id] = self.cases.get(test_id, 0) + 1
            elif kind == "issueRecorded":
                issue = payload.get("issue", {})
                if issue.get("isKnown") or issue.get("_severity", issue.get("severity", "error")) == "warning":
                    continue
                texts = [m.get("text", "") for m in payload.get("messages", [])]
                self.issues.setdefault(test_id, " ".join(": ".join(texts).split())[:300])
                self.issue_counts[test_id] = self.issue_counts.get(test_id, 0) + 1
            elif kind == "runEnded":
                self.finished = True

    @property
    def failed(self):
        """Tests (functions) with an issue, in the order they started."""
        return [t for t in dict.fromkeys(self.started) if t in self.issues]

    @property
    def stray_issues(self):
        """Issues recorded outside any test function (a suite's setup, or the run itself)."""
        return {t: m for t, m in self.issues.items() if t not in self.functions}

    @property
    def unfinished(self):
        return [t for t in dict.fromkeys(self.started) if t not in self.ended]


def start_tests(binary, arguments, work, label, prefix=(), output=None):
    """Starts the test binary; `prefix` goes before it (a priority, an environment), `output` takes its text."""
    stream = os.path.join(work, f"{label}.jsonl")
    command = list(prefix) + [binary, "--testing-library", "swift-testing", "--no-parallel",
                              "--event-stream-output-path", stream, "--event-stream-version", "0"] + arguments
    environment = dict(os.environ)
    if output is not None or not sys.stdout.isatty():
        environment["NO_COLOR"] = "1"
    # Its own process group, so a run over its time limit is stopped with everything it started.
    process = subprocess.Popen(command, env=environment, start_new_session=True, stdout=output,
                               stderr=subprocess.STDOUT if output is not None else None)
    OWN_CHILDREN.add(process.pid)
    return process, stream


# The test processes this runner started: every other child is an orphan it adopted as the reaper.
OWN_CHILDREN = set()


def reap_orphans():
    """Reaps the adopted orphans that ended (a private PulseAudio forks away from its test), so none
    waits as a zombie until the run ends. Only the main thread calls it, between its own waits, and
    it never touches a test process of its own: those are waited for by their Popen."""
    me = str(os.getpid())
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in OWN_CHILDREN:
            continue
        fields = read_proc(int(name), "stat").rsplit(b")", 1)[-1].split()
        # After the command's name: its state, then its parent.
        if len(fields) > 1 and fields[0] == b"Z" and fields[1] == me.encode():
            try:
                os.waitpid(int(name), os.WNOHANG)
            except ChildProcessError:
                pass


def wait_reaping(process, timeout):
    """`process.wait(timeout)`, reaping ended orphans every second meanwhile."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return process.wait(timeout=max(0.0, min(1.0, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            reap_orphans()
            if time.monotonic() >= deadline:
                raise


def run_tests(binary, arguments, limit_seconds, work, label):
    process, stream = start_tests(binary, arguments, work, label)
    return finish_tests(process, stream, limit_seconds)


def finish_tests(process, stream, limit_seconds):
    """Waits for a started run (at most `limit_seconds` more) and reads its events."""
    timed_out = False
    try:
        status = wait_reaping(process, max(1.0, limit_seconds))
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(process.pid, signal.SIGTERM)
        try:
            status = process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            status = process.wait()
    except KeyboardInterrupt:
        os.killpg(process.pid, signal.SIGTERM)
        raise
    events = []
    try:
        with open(stream, encoding="utf-8", errors="replace") as lines:
            for line in lines:
                try:
                    events.append(json.loads(line))
                except json.JSONDecodeError:
                    pass  # a line cut short by a crash
    except OSError:
        pass
    return Run(status, events, timed_out)


def describe_end(run):
    if run.timed_out:
        why = "was stopped at its time limit"
    elif run.status < 0:
        why = f"was killed by signal {-run.status}"
    else:
        why = f"ended with status {run.status}"
    running = ", ".join(run.unfinished) or "none"
    return f"the test process {why} before the run finished (tests still running: {running})"


def main():
    parser = argparse.ArgumentParser(add_help=True, allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("--tests", help="the test binary (default: DIR/debug/DecibarPackageTests.xctest)")
    parser.add_argument("--scratch-path", default=os.path.join(ROOT, ".build"), help="the build folder (default .build)")
    parser.add_argument("--max-reruns", type=int, default=int(os.environ.get("MAX_RERUNS", "3")))
    parser.add_argument("--host-share", type=float, default=HOST_SHARE,
                        help="a failure while the hypervisor took at least this percent of the cores (steal) is the "
                        "host's: it does not count toward --max-reruns (default %(default)s; above 100: never)")
    parser.add_argument("--host-burst", type=float, default=HOST_BURST,
                        help="so is a failure while the host took at least this percent of the cores in one half "
                        "second of the test (default %(default)s; above 100: never)")
    parser.add_argument("--host-reruns", type=int, default=2,
                        help="how many more times a second run the host starved too runs, each once the host "
                        "takes less or after two minutes (default %(default)s)")
    parser.add_argument("--time-limit", type=float, default=float(os.environ.get("TEST_TIME_LIMIT_MINUTES", "60")),
                        help="minutes the whole first run may take (a second run gets a quarter, at least 5)")
    parser.add_argument("--beside", help="a regex of test IDs to run at the same time as the others, in a second test "
                        "process (a --filter narrows the others only)")
    parser.add_argument("--alone", help="a regex of test IDs to run after both lanes have ended, with nothing beside them "
                        "(with --beside)")
    parser.add_argument("--beside-here", action="store_true",
                        help="the second lane runs in this environment, not in a test environment of its own")
    parser.add_argument("--timeline", help="where to write when each test of each lane ran (default: DIR/test-timeline.txt)")
    options, passed = parser.parse_known_args()
    options.timeline = options.timeline or os.path.join(options.scratch_path, "test-timeline.txt")
    become_reaper()
    for stale in stale_scratch():
        say(f"an earlier run ended without cleaning up ({stale})")
        sweep(stale)
    scratch = tempfile.mkdtemp(prefix="dbr.", dir="/tmp")
    # Passable, not listable: a test opens a folder in it to another user (mkdtemp makes it 0700).
    os.chmod(scratch, 0o711)
    with open(os.path.join(scratch, "runner.pid"), "w", encoding="ascii") as pid_file:
        pid_file.write(f"{os.getpid()}\n")
    # Short: a private server's socket path must stay under 108 bytes.
    os.environ["TMPDIR"] = scratch
    tempfile.tempdir = None
    try:
        status = run_all(options, passed)
    finally:
        swept = sweep(scratch)
    if left_behind() or swept:
        return 1
    return status


def run_all(options, passed):
    binary = options.tests or os.path.join(options.scratch_path, "debug", "DecibarPackageTests.xctest")
    if not os.access(binary, os.X_OK):
        say(f"no test binary at {binary}; build it first (swift build --build-tests)")
        return 2

    beside = options.beside or None
    load = MachineLoad()
    with tempfile.TemporaryDirectory(prefix="decibar-tests.") as work:
        limit = options.time_limit * 60
        began = time.monotonic()
        if beside:
            # At the lowest priority it takes only the CPU the timed tests leave; in an environment of
            # its own (sound server, display, bus), so neither lane sees the other's windows or players.
            prefix = idle_priority() + ["nice", "-n", "19"] + kept_from_realtime() \
                + ([] if options.beside_here else [os.path.join(ROOT, "Scripts", "with-test-env.sh")])
            where = "in this environment" if options.beside_here else "in a test environment of their own"
            beside_text = open(os.path.join(work, "beside.txt"), "w+", encoding="utf-8", errors="replace")
            beside_run = start_tests(binary, strip_filters(passed) + ["--filter", beside], work, "beside",
                                     prefix=prefix, output=beside_text)
            lower_autogroup(beside_run[0].pid)
            beside_ended = []
            threading.Thread(target=lambda: (beside_run[0].wait(), beside_ended.append(time.monotonic())), daemon=True).start()
            try:
                alone_skip = ["--skip", options.alone] if options.alone else []
                runs = [run_tests(binary, passed + ["--skip", beside] + alone_skip, limit, work, "first")]
            except KeyboardInterrupt:
                os.killpg(beside_run[0].pid, signal.SIGTERM)
                raise
            main_seconds = time.monotonic() - began
            print(flush=True)
            runs.append(finish_tests(*beside_run, limit - main_seconds))
            beside_seconds = (beside_ended[0] if beside_ended else time.monotonic()) - began
            say(f"the tests beside the others, at the lowest priority {where} ({beside}), "
                f"took {beside_seconds:.0f} s; the others {main_seconds:.0f} s")
            beside_text.seek(0)
            sys.stdout.write(beside_text.read())
            print(flush=True)
            if options.alone:
                began_alone = time.monotonic()
                runs.append(run_tests(binary, strip_filters(passed) + ["--filter", options.alone], limit - (began_alone - began),
                                      work, "alone"))
                print(flush=True)
                say(f"the tests that need the whole machine ({options.alone}), run alone after both lanes, "
                    f"took {time.monotonic() - began_alone:.0f} s")
        else:
            runs = [run_tests(binary, passed, limit, work, "first")]
            print(flush=True)
        for run in runs:
            if not run.finished:
                say(describe_end(run))
                return 1
            if run.stray_issues:
                say("issues were recorded outside any test:")
                for test_id, message in run.stray_issues.items():
                    print(f"  ✘ {test_id or '(the run)'}\t{message}")
                return 1
        first = Combined(runs)
        lanes = [("timed" if beside else "tests", runs[0])] + ([("beside", runs[1])] if beside else []) \
            + ([("alone", runs[2])] if beside and options.alone else [])
        write_timeline(options.timeline, lanes, load)
        whole = load.between(load.samples[0][0], time.time()) if load.samples else None
        if whole:
            say(f"over the run the cores were {whole[0]:.0f} % busy, {whole[1]:.1f} % taken by the host "
                f"(at most {whole[2]:.0f} % in half a second)")
        failed = first.failed
        if not failed:
            if first.status != 0:
                say(f"the run failed (status {first.status}) without naming a failed test; see above")
                return 1
            say(f"passed: {len(set(first.started))} tests ran, none needed a second run")
            return 0

        say(f"{len(failed)} test(s) failed on the first run:")
        for test_id in failed:
            print(f"  ✘ {test_id}\t{first.issues[test_id]}")
            print(overlap_text(test_id, lanes, load))
        # A failure while the host took a share of the cores is the host's (the figure is printed
        # beside it): it is run again like the others but does not count toward the breakage limit.
        hosts = [test_id for test_id in failed if host_took_cores(test_id, lanes, load, options)]
        if hosts:
            say(f"{len(hosts)} of them failed while the host took at least {host_rule(options)}")
        if len(failed) - len(hosts) > options.max_reruns:
            say(f"more than {options.max_reruns} failures; not running them again")
            return 1

        again_limit = max(5.0, options.time_limit / 4) * 60
        still = []
        for index, test_id in enumerate(failed):
            # The first run's --skip and other options stay; its --filter is replaced by this test's ID.
            kept = strip_filters(passed)
            for attempt in range(1 + options.host_reruns):
                if attempt:
                    waited = load.wait_until_quiet(options.host_share, HOST_WAIT)
                    say(f"the host took {taken:.1f} % of the cores during that run (at most {worst:.0f} % in half a second): "
                        f"running {test_id} once more ({waited})")
                else:
                    say(f"running {test_id} again, alone")
                began = time.time()
                again = run_tests(binary, kept + ["--filter", exact_filter(test_id)], again_limit, work,
                                  f"again-{index}" + (f"-{attempt}" if attempt else ""))
                print(flush=True)
                problem = second_run_problem(test_id, first, again)
                measured = load.between(began, time.time())
                taken, worst = (measured[1], measured[2]) if measured else (0.0, 0.0)
                # A failure the host starved is run once more, on a quieter host if one comes; any
                # other failure, and a run that passed, end here.
                if problem is None or not starved(measured, options):
                    break
            if problem is None:
                cases = again.cases.get(test_id, 0)
                detail = f" ({cases} cases)" if cases else ""
                runs = "second run" if attempt == 0 else f"run {attempt + 2}"
                say(f"{runs} of {test_id}: ran 1 test{detail}, passed")
            else:
                still.append((test_id, problem))

        if still:
            say("failed again:")
            for test_id, message in still:
                print(f"  ✘ {test_id}\t{message}")
            return 1
        # The host's failures are not the tests' own: listed apart, with what the host took, so a
        # run's own second runs read at a glance.
        own = [test_id for test_id in failed if test_id not in hosts]
        if own:
            say(f"passed: {len(set(first.started))} tests ran; these needed a second run:")
            for test_id in own:
                print(f"  ↻ {test_id}\t(first run: {first.issues[test_id]})")
        else:
            say(f"passed: {len(set(first.started))} tests ran, none needed a second run of its own")
        if hosts:
            say(f"run again because the host took at least {host_rule(options)} during their first run "
                "(not counted as failed):")
            for test_id in hosts:
                print(f"  ⏸ {test_id}\t(first run: {first.issues[test_id]}; {host_text(test_id, lanes, load)})")
        return 0


def become_reaper():
    """Every process a test starts, and does not stop, becomes this runner's child when its parent ends."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except OSError:
        pass


def left_behind():
    """Names and kills the processes the tests left running (this runner's children that it did not
    start itself: those have all ended by now). True if there were any."""
    me = str(os.getpid())
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", encoding="utf-8", errors="replace") as status:
                fields = dict(line.rstrip("\n").split(":\t", 1) for line in status if ":\t" in line)
            with open(f"/proc/{name}/cmdline", "rb") as command:
                words = command.read().split(b"\0")
        except OSError:
            continue
        if fields.get("PPid") != me:
            continue
        if fields.get("State", "").startswith("Z"):
            try:
                os.waitpid(int(name), os.WNOHANG)  # an orphan that ended: reaped, not left behind
            except ChildProcessError:
                pass
            continue
        text = " ".join(w.decode(errors="replace") for w in words if w)[:160]
        found.append((int(name), text, fields.get("SigBlk", "?")))
    if not found:
        return False
    say(f"{len(found)} process(es) started by the tests were still running at the end (a failure); killed:")
    for pid, text, blocked in found:
        print(f"  ✘ {pid}\t{text}\t(blocked signals {blocked})")
        try:
            os.killpg(pid, signal.SIGKILL) if os.getpgid(pid) == pid else os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    for pid, _, _ in found:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    return True


def stale_scratch():
    """The scratch folders of earlier runs whose runner is gone."""
    found = []
    for name in os.listdir("/tmp"):
        folder = os.path.join("/tmp", name)
        if not name.startswith("dbr.") or not os.path.isdir(folder):
            continue
        try:
            with open(os.path.join(folder, "runner.pid"), encoding="ascii") as pid_file:
                pid = int(pid_file.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
        if not os.path.exists(f"/proc/{pid}") or b"run-tests" not in read_proc(pid, "cmdline"):
            found.append(folder)
    return found


def is_running(pid):
    """Whether `pid` runs (one that ended and waits to be reaped does not)."""
    state = read_proc(pid, "stat").rsplit(b")", 1)[-1].split()
    return bool(state) and state[0] != b"Z"


def read_proc(pid, name):
    try:
        with open(f"/proc/{pid}/{name}", "rb") as item:
            return item.read()
    except OSError:
        return b""


def sweep(scratch):
    """Stops and names what still runs from the run's scratch folder, then removes the folder and
    names the scratch folders that were left in it. True if anything still ran."""
    me, marker = os.getpid(), scratch.encode()
    names = {}  # PID -> what its PID file calls it, and where
    for folder, _, files in os.walk(scratch):
        for file in files:
            if not file.endswith(".pid") or (folder == scratch and file == "runner.pid"):
                continue
            try:
                with open(os.path.join(folder, file), encoding="ascii") as pid_file:
                    names[int(pid_file.read().split()[0])] = (file[:-4], os.path.relpath(folder, "/tmp"))
            except (OSError, ValueError, IndexError):
                continue
    running = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        pid = int(name)
        if not is_running(pid):
            continue
        words = read_proc(pid, "cmdline")
        # A PID file's process must still name the folder: its number may be another's by now.
        if marker not in words and marker not in read_proc(pid, "environ"):
            continue
        text = " ".join(w.decode(errors="replace") for w in words.split(b"\0") if w)[:160]
        what, where = names.get(pid, (None, None))
        running.append((pid, text, f"{what}, in {where}" if what else "names the scratch folder"))
    if running:
        say(f"{len(running)} process(es) started by the tests were still running at the end (a failure); stopped:")
        for pid, text, what in running:
            print(f"  ✘ {pid}\t{text}\t({what})")
        for pid, _, _ in running:
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and any(is_running(pid) for pid, _, _ in running):
            for pid, _, _ in running:
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
            time.sleep(0.05)
        for pid, _, _ in running:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (OSError, ChildProcessError):
                pass
    # A test's scratch folders (dbt.*) go when its process exits; those still here are a dead process's.
    left = sorted(name for name in os.listdir(scratch) if name.startswith("dbt.")) if os.path.isdir(scratch) else []
    if left:
        say(f"scratch folders of test processes that did not remove them, removed with {scratch}: {', '.join(left)}")
    subprocess.run(["rm", "-rf", scratch], check=False)
    return bool(running)


def write_timeline(path, lanes, load):
    """When each test of each lane started and ended, in seconds from the first start, with how busy
    the cores were then and how much the host took (steal)."""
    rows = [(times[0], times[1], lane, test_id) for lane, run in lanes for test_id, times in run.times.items() if times[0]]
    if not rows:
        return
    origin = min(row[0] for row in rows)
    try:
        with open(path, "w", encoding="utf-8") as out:
            for start, end, lane, test_id in sorted(rows):
                ending = f"{end - origin:8.1f}" if end else "       ?"
                busy = load.between(start, end) if end else None
                machine = f"cores {busy[0]:.0f} % busy, {busy[1]:.1f} % to the host, at most {busy[2]:.0f} %" if busy else "cores ?"
                out.write(f"{start - origin:8.1f} {ending}  {lane:6s}  {test_id}  ({machine})\n")
    except OSError as error:
        say(f"cannot write the timeline to {path}: {error}")


# Steal this high over a test (it is near 1 % on a quiet host) starves what it times.
HOST_SHARE = 5.0
# How long a run of a test the host starved waits for the host to take less before it runs again.
HOST_WAIT = 120.0


# Steal this high in one half second (2-6 % at most on a quiet run) is a core gone for a fifth of a
# second or more: PipeWire's graph missed 18 of its 5.3 ms cycles in one such second (a CI-like run
# of 2026-12-03, 31 % in half a second, 3.8 % over the test's 10 s).
HOST_BURST = 20.0


def starved(measured, options):
    """Whether `measured` (MachineLoad.between) shows the host took the cores: on average, or in a burst."""
    return measured is not None and (measured[1] >= options.host_share or measured[2] >= options.host_burst)


def host_rule(options):
    return f"{options.host_share:.0f} % of the cores (or {options.host_burst:.0f} % in half a second)"


def host_took_cores(test_id, lanes, load, options):
    """Whether the hypervisor took the cores (`starved`) while `test_id` ran."""
    mine = next((run.times[test_id] for _, run in lanes if test_id in run.times), None)
    if not mine or not mine[0]:
        return False
    return starved(load.between(mine[0], mine[1] or time.time()), options)


def host_text(test_id, lanes, load):
    """What the host took while `test_id` first ran."""
    mine = next((run.times[test_id] for _, run in lanes if test_id in run.times), None)
    measured = load.between(mine[0], mine[1] or time.time()) if mine and mine[0] else None
    return "the host took an unknown share" if measured is None else \
        f"the host took {measured[1]:.1f} % of the cores, at most {measured[2]:.0f} % in half a second"


def second_run_problem(test_id, first, again):
    """Why a second run of `test_id` does not count as its passing (None if it does)."""
    ran = list(dict.fromkeys(again.started))
    cases = again.cases.get(test_id, 0)
    if not again.finished:
        return describe_end(again)
    if ran != [test_id] or test_id in again.skipped:
        return f"the second run ran {len(ran)} test(s), not this one ({', '.join(ran) or 'none'})"
    if test_id in again.issues or test_id not in again.ended:
        return again.issues.get(test_id, "it did not end")
    if again.stray_issues or again.status != 0:
        return f"the second run failed (status {again.status}) outside the test"
    if first.cases.get(test_id, 0) != cases:
        return f"the second run ran {cases} case(s), the first {first.cases.get(test_id, 0)}"
    return None


def overlap_text(test_id, lanes, load):
    """How long `test_id` ran, how busy the machine was, and what the other lane ran meanwhile."""
    mine = next((run.times[test_id] for _, run in lanes if test_id in run.times), None)
    if not mine or not mine[0]:
        return "      (no times for it)"
    start, end = mine[0], mine[1] or time.time()
    machine = load.text(start, end)
    if len(lanes) < 2:
        return f"      ran {end - start:.1f} s{machine}"
    beside = []
    for _, run in lanes:
        if test_id in run.times:
            continue
        for other, (begun, ended) in run.times.items():
            if begun and begun < end and (ended or end) > start:
                suite, _, function = other.partition("/")
                beside.append(f"{suite.split('.')[-1]}/{function.split('(')[0]} "
                              f"({max(start, begun) - start:+.1f}..{min(end, ended or end) - start:+.1f} s)")
    if not beside:
        return f"      ran {end - start:.1f} s{machine}; the other lane ran nothing then"
    return f"      ran {end - start:.1f} s{machine}; beside it: " + ", ".join(beside[:6])


def idle_priority():
    """SCHED_IDLE where the system allows it: a timed test's thread that wakes then takes the core
    from a task of this lane at once, instead of waiting out its slice (nice alone only shares the
    cores less). Children inherit it, except threads that ask for real-time scheduling."""
    try:
        allowed = subprocess.run(["chrt", "--idle", "0", "true"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL).returncode == 0
    except OSError:
        allowed = False
    return ["chrt", "--idle", "0"] if allowed else []


def kept_from_realtime():
    """Without CAP_SYS_NICE and with RLIMIT_RTPRIO 0, as a user's session without an audio group:
    the players, sound servers and windows of this lane cannot raise their threads to real-time
    (or below nice 19), where they would take turns with the timed tests' real-time threads at the
    same priority. (As root they did: a stretched player's thread at the timed tap's priority kept
    it from the cores, and the tap lost graph cycles.) Where setpriv or prlimit is missing, nothing."""
    if not (shutil.which("setpriv") and shutil.which("prlimit")):
        return []
    return ["prlimit", "--rtprio=0:0", "--nice=0:0", "--", "setpriv", "--bounding-set=-sys_nice", "--inh-caps=-sys_nice", "--"]


def lower_autogroup(pid):
    """A new session is a scheduling group of its own where the kernel groups sessions
    (sched_autogroup): a nice inside it counts only against its own tasks, so the group's own
    nice is what keeps it out of the other lane's way."""
    try:
        with open(f"/proc/{pid}/autogroup", "w") as group:
            group.write("19")
    except OSError:
        pass  # no autogroups here: the processes' nice does it


class Combined:
    """The runs of both lanes, read as one."""

    def __init__(self, runs):
        self.status = next((run.status for run in runs if run.status != 0), 0)
        self.started = [t for run in runs for t in run.started]
        self.failed = [t for run in runs for t in run.failed]
        self.issues = {t: m for run in runs for t, m in run.issues.items()}
        self.cases = {t: c for run in runs for t, c in run.cases.items()}


def strip_filters(arguments):
    """The arguments without any --filter (its value included)."""
    kept, skip_next = [], False
    for argument in arguments:
        if skip_next:
            skip_next = False
        elif argument == "--filter":
            skip_next = True
        elif not argument.startswith("--filter="):
            kept.append(argument)
    return kept


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
