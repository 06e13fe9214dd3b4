"""A private desk for the scripts that watch decibar draw: Xvfb (1920x1080), a PulseAudio server
with a null sink, and music playing into it in a loop. Everything it started is stopped, and its
folder removed, when the `with` block ends, however it ends.

    with MusicDesk("decibar-bench-") as desk:
        subprocess.run([binary, "live"], env=desk.environment)
"""
import os
import shutil
import subprocess
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))


class MusicDesk:
    def __init__(self, prefix):
        self.prefix = prefix
        self.folder = None
        self.environment = None
        self.music = None
        self._stops = []

    def __enter__(self):
        self.folder = tempfile.mkdtemp(prefix=self.prefix)
        try:
            display = self._start("xvfb-start.sh", self.folder + "/x", "1920x1080x24")
            server = self._start("pulse-start.sh", self.folder + "/pa")
            self.environment = dict(os.environ, DISPLAY=display, PULSE_SERVER=server)
            self.music = os.path.join(self.folder, "music.flac")
            subprocess.run(["bash", os.path.join(here, "make-music.sh"), self.music, "1", "-14"], check=True,
                           stdout=subprocess.DEVNULL)
            player = subprocess.Popen(["bash", "-c", 'while :; do paplay "$0" || exit; done', self.music],
                                      env=self.environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self._stops.append(lambda: (player.kill(), player.wait()))
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _start(self, script, folder, *arguments):
        """Runs SCRIPT FOLDER ARGUMENTS, remembers its -stop script, and returns what it printed."""
        printed = subprocess.run([os.path.join(here, script), folder, *arguments], check=True,
                                 stdout=subprocess.PIPE, text=True).stdout.strip()
        stop = os.path.join(here, script.replace("-start", "-stop"))
        self._stops.append(lambda: subprocess.run([stop, folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        return printed

    def __exit__(self, *_):
        for stop in reversed(self._stops):
            stop()
        self._stops = []
        shutil.rmtree(self.folder, ignore_errors=True)
        return False


def measure_live(binary, environment, arguments, seconds):
    """Runs `decibar live ARGUMENTS` for `seconds` after a first second, and returns (frames per
    second after that second, from its frame log; decibar's CPU over the same time, utime + stime
    from /proc, in % of one core)."""
    ticks = os.sysconf("SC_CLK_TCK")
    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        process = subprocess.Popen([binary, "live", *arguments, "--exit-after", str(seconds + 1.5), "--frame-log", log.name],
                                   env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(1)
        with open("/proc/%d/stat" % process.pid) as stat:
            start = sum(int(value) for value in stat.read().rsplit(")", 1)[1].split()[11:13])
        started = time.monotonic()
        time.sleep(seconds)
        with open("/proc/%d/stat" % process.pid) as stat:
            end = sum(int(value) for value in stat.read().rsplit(")", 1)[1].split()[11:13])
        cpu = (end - start) / ticks / (time.monotonic() - started) * 100
        process.communicate(timeout=30)
        times = [float(line.split()[0]) for line in open(log.name) if line.strip()]
    steady = [t for t in times if t >= times[0] + 1] if times else []
    fps = (len(steady) - 1) / (steady[-1] - steady[0]) if len(steady) > 2 else 0.0
    return fps, cpu
