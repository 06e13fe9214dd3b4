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
