#!/usr/bin/env python3
"""A two-hour render: memory and speed stay flat, the video is as long as the audio, a click lands on its frame.

Makes two hours of music (Scripts/make-music.sh, looped) that falls silent from 1:58:50 to 1:59:10
but for a 5 ms click at exactly 1:59:00, renders it at 854x480 and 30 fps on a pseudo-terminal
(so the progress line is drawn), and every second reads decibar's resident memory and the frames
done from that line. It passes when:
  - the last 10 % of frames run at the resident size of the first 10 % (median, within 5 %) and at
    their frame rate (median, within 15 %);
  - the video has 216,000 frames (±1) and lasts 7200 s (±1 frame);
  - the first frame after 1:58:59 whose bars light up is frame 214,200 (±1).
The progress line must also be redrawn at least twice a second.

Usage: soak-render.py DECIBAR [WORK_FOLDER [SECONDS]]     (make soak-render; about 25 minutes on two cores)
"""
import os
import pty
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time

FPS, SECONDS = 30, int(sys.argv[3]) if len(sys.argv) > 3 else 7200
CLICK = SECONDS - 60
WIDTH, HEIGHT = 854, 480


def make_audio(work):
    clip = os.path.join(work, "clip.wav")
    subprocess.run([os.path.join(os.path.dirname(__file__), "make-music.sh"), clip, "0", "-14"], check=True,
                   stdout=subprocess.DEVNULL)
    path = os.path.join(work, "two-hours.flac")
    graph = (f"[0:a]aformat=sample_rates=48000:channel_layouts=stereo,"
             f"volume=enable='between(t,{CLICK - 10},{CLICK + 10})':volume=0[music];"
             f"[1:a]aformat=channel_layouts=stereo,adelay={CLICK * 1000}:all=1[click];"
             f"[music][click]amix=inputs=2:duration=first:normalize=0[out]")
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-stream_loop", "-1", "-i", clip,
                    "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=0.005,volume=8",
                    "-filter_complex", graph, "-map", "[out]", "-t", str(SECONDS), "-c:a", "flac", path], check=True)
    return path


def resident_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def render(decibar, audio, output):
    """Runs the render on a pseudo-terminal; returns (time, frames, rss MB) samples and redraw times."""
    main, secondary = pty.openpty()
    process = subprocess.Popen([decibar, "render", audio, "-o", output, "--size", f"{WIDTH}x{HEIGHT}", "--fps", str(FPS)],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=secondary)
    os.close(secondary)
    samples, redraws, text, next_sample, frames = [], [], "", time.monotonic(), 0
    try:
        while True:
            ready, _, _ = select.select([main], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(main, 4096).decode(errors="replace")
                except OSError:
                    chunk = ""
                if not chunk and process.poll() is not None:
                    break
                # Each redraw begins with a carriage return: a line is whole when the next begins.
                *lines, text = (text + chunk).split("\r")
                for line in lines:
                    match = re.search(r"(\d+)/\d+ frames", line)
                    if match:
                        frames = int(match.group(1))
                        redraws.append(time.monotonic())
            elif process.poll() is not None:
                break
            now = time.monotonic()
            if now >= next_sample:
                rss = resident_mb(process.pid)
                if rss is not None and frames > 0:
                    samples.append((now, frames, rss))
                next_sample = now + 1
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait()
        os.close(main)
    if process.returncode != 0:
        sys.exit(f"soak-render: the render failed with status {process.returncode}")
    return samples, redraws


def first_lit_frame(output):
    """The frame number of the first frame from 1:58:59 whose bars are brighter than the silence's."""
    start = CLICK - 1
    # Frames as decoded, counted from the one at 1:58:59, not placed by time: a long render's MP4 is
    # fragmented, its sound starts with the AAC priming before zero, and ffmpeg moves every timestamp
    # by that much (a frame duplicated at the start of a constant-rate output).
    raw = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-ss", str(start), "-i", output, "-frames:v", str(2 * FPS),
                          "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "-"], check=True, capture_output=True).stdout
    size = WIDTH * HEIGHT
    bars = int(HEIGHT * 0.6) * WIDTH  # the upper part: bars, not the scrubber
    means = [sum(raw[k * size: k * size + bars]) / bars for k in range(len(raw) // size)]
    floor = statistics.median(means[:20])
    for k, mean in enumerate(means):
        if mean > floor + 1:
            return start * FPS + k, means
    return None, means


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    decibar = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="dbsoak-render.")
    os.makedirs(work, exist_ok=True)
    audio = make_audio(work)
    output = os.path.join(work, "two-hours.mp4")
    began = time.monotonic()
    samples, redraws = render(decibar, audio, output)
    print(f"rendered in {time.monotonic() - began:.0f} s, {len(samples)} samples")
    total = FPS * SECONDS
    failures = []

    def window(low, high):
        chosen = [s for s in samples if low <= s[1] <= high]
        rates = [(b[1] - a[1]) / (b[0] - a[0]) for a, b in zip(chosen, chosen[1:]) if b[0] > a[0]]
        return statistics.median([s[2] for s in chosen]), statistics.median(rates)

    first_rss, first_rate = window(total * 0.02, total * 0.10)  # past the first seconds' set-up
    last_rss, last_rate = window(total * 0.90, total)
    print(f"first 10 %: {first_rss:.1f} MB, {first_rate:.1f} frames/s; last 10 %: {last_rss:.1f} MB, {last_rate:.1f} frames/s")
    if last_rss > first_rss * 1.05:
        failures.append(f"memory grew: {first_rss:.1f} MB -> {last_rss:.1f} MB")
    if abs(last_rate - first_rate) > first_rate * 0.15:
        failures.append(f"frame rate changed: {first_rate:.1f} -> {last_rate:.1f} frames/s")
    gaps = [b - a for a, b in zip(redraws, redraws[1:])]
    if not gaps or max(gaps) > 0.5:
        failures.append(f"the progress line went {max(gaps, default=0):.2f} s without a redraw")

    # The picture's own length: the file's (format=duration) also counts the AAC priming before zero
    # that a fragmented MP4's edit list cuts.
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-count_packets", "-show_entries",
                            "stream=nb_read_packets,duration", "-of", "default=nw=1", output],
                           check=True, capture_output=True, text=True).stdout
    packets = int(re.search(r"nb_read_packets=(\d+)", probe).group(1))
    duration = float(re.search(r"duration=([\d.]+)", probe).group(1))
    print(f"video: {packets} frames, {duration:.3f} s")
    if abs(packets - total) > 1 or abs(duration - SECONDS) > 1 / FPS:
        failures.append(f"the video has {packets} frames and lasts {duration:.3f} s, not {total} and {SECONDS}")

    lit, means = first_lit_frame(output)
    print(f"the click at {CLICK} s (frame {CLICK * FPS}) shows first on frame {lit}")
    if lit is None or abs(lit - CLICK * FPS) > 1:
        failures.append(f"the click shows first on frame {lit}, not {CLICK * FPS} (bars' mean luma: {[round(m, 1) for m in means]})")

    for failure in failures:
        print("FAIL: " + failure)
    print("PASS" if not failures else "soak-render failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
