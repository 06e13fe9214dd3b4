#!/usr/bin/env python3
"""Writes test material whose beat times are known to the sample, and those times.

  make-beats.py clicks BPM PATH [--to BPM2 --at SECONDS] [--seconds 30]
  make-beats.py band BPM PATH [--bass held] [--seconds 40]

PATH gets a 48 kHz stereo float WAV; PATH.beats gets one beat time per line (seconds, to the
sample). Clicks accent every fourth beat (louder, higher). The band has a kick on every beat, a
snare on 2 and 4, hats on eighths, a bass line on eighths and a sustained pad, in a quiet intro
(0-8 s, -20 dB), a verse and a louder chorus (from 24 s, +6 dB). With --bass held, a softer kick
under a loud bass that rises slowly from each kick and is stopped dead a tenth of a beat before
the next: a click ahead of every beat. Noise is seeded: the same arguments write the same file.
"""
import argparse

import numpy as np

RATE = 48000


def beat_times(bpm, seconds, to_bpm=None, at=None):
    times, t = [], 0.0
    while t < seconds - 0.05:
        times.append(t)
        t += 60.0 / (to_bpm if to_bpm and at is not None and t >= at - 1e-9 else bpm)
    return [round(time * RATE) / RATE for time in times]


def add(signal, start, sound):
    end = min(len(signal), start + len(sound))
    if start < end:
        signal[start:end] += sound[: end - start]


def decaying(seconds, tau):
    t = np.arange(int(seconds * RATE)) / RATE
    return t, np.exp(-t / tau)


def clicks(args, rng):
    times = beat_times(args.bpm, args.seconds, args.to, args.at)
    signal = np.zeros(int(args.seconds * RATE))
    for index, time in enumerate(times):
        accented = index % 4 == 0
        t, envelope = decaying(0.03, 0.006)
        tone = np.sin(2 * np.pi * (2500 if accented else 1500) * t) * envelope
        noise = rng.uniform(-1, 1, len(t)) * np.exp(-t / 0.002) * 0.3
        add(signal, round(time * RATE), (0.5 if accented else 0.3) * (tone + noise))
    return signal, times


def band(args, rng):
    bpm, seconds = args.bpm, args.seconds
    beat = 60.0 / bpm
    times = beat_times(bpm, seconds)
    n = int(seconds * RATE)
    drums, tonal = np.zeros(n), np.zeros(n)
    # Kick: a falling sine; snare: noise over a tone; hats: short high noise (differenced).
    t, envelope = decaying(0.35, 0.07)
    kick = np.sin(2 * np.pi * np.cumsum(45 + 110 * np.exp(-t / 0.03)) / RATE) * envelope
    t, envelope = decaying(0.25, 0.05)
    snare = (rng.uniform(-1, 1, len(t)) * 0.7 + 0.3 * np.sin(2 * np.pi * 190 * t)) * envelope
    t, envelope = decaying(0.06, 0.012)
    hat = np.diff(rng.uniform(-1, 1, len(t) + 1)) * envelope
    held = args.bass == "held"
    for index, time in enumerate(times):
        start = round(time * RATE)
        add(drums, start, (0.3 if held else 0.8) * kick)
        if index % 2 == 1:
            add(drums, start, 0.45 * snare)
        for half in (0, 1):
            add(drums, start + round(half * beat / 2 * RATE), 0.12 * hat)
    # Bass: eighth notes over a four-bar progression; pad: a chord held across each bar.
    roots = [55.0, 55.0 * 2 ** (8 / 12), 55.0 * 2 ** (3 / 12), 55.0 * 2 ** (10 / 12)]
    eighth = round(beat / 2 * RATE)
    for step in range(int(seconds / (beat / 2)) + 1):
        root = roots[(step // 8) % 4]
        if held:
            if step % 2 == 0:
                t = np.arange(int(0.9 * beat * RATE)) / RATE
                note = np.sin(2 * np.pi * root * t) + 0.3 * np.sin(4 * np.pi * root * t)
                add(tonal, step * eighth, 0.8 * note * np.minimum(1, t / 0.05))
            continue
        t, envelope = decaying(beat / 2, 0.15)
        note = np.sin(2 * np.pi * root * t) + 0.3 * np.sin(4 * np.pi * root * t)
        add(tonal, step * eighth, 0.25 * note * envelope * np.minimum(1, t / 0.005))
    bar = 4 * beat
    for index in range(int(seconds / bar) + 1):
        root = roots[index % 4] * 4
        t = np.arange(int(bar * RATE)) / RATE
        chord = sum(np.sin(2 * np.pi * root * ratio * t) for ratio in (1, 1.26, 1.5))
        swell = np.minimum(1, t / 0.4) * np.minimum(1, (bar - t) / 0.4)
        add(tonal, round(index * bar * RATE), 0.05 * chord * swell)
    seconds_axis = np.arange(n) / RATE
    section = np.where(seconds_axis < 8, 0.1, np.where(seconds_axis < 24, 0.5, 1.0))
    return (drums + tonal) * section * 0.7, times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["clicks", "band"])
    parser.add_argument("bpm", type=float)
    parser.add_argument("path")
    parser.add_argument("--to", type=float, help="clicks: the tempo after --at")
    parser.add_argument("--at", type=float, help="clicks: when the tempo changes (s)")
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--bass", choices=["eighths", "held"], default="eighths", help="band: the bass line")
    args = parser.parse_args()
    args.seconds = args.seconds or (30.0 if args.kind == "clicks" else 40.0)
    rng = np.random.default_rng(7)
    signal, times = (clicks if args.kind == "clicks" else band)(args, rng)
    peak = np.max(np.abs(signal))
    if peak > 0.99:
        signal *= 0.99 / peak
    stereo = np.repeat(signal.astype("<f4")[:, None], 2, axis=1)
    # WAVE_FORMAT_IEEE_FLOAT by hand: the wave module writes integer PCM only.
    data = stereo.tobytes()
    with open(args.path, "wb") as out:
        out.write(b"RIFF" + (36 + len(data)).to_bytes(4, "little") + b"WAVEfmt ")
        out.write((16).to_bytes(4, "little") + (3).to_bytes(2, "little") + (2).to_bytes(2, "little"))
        out.write(RATE.to_bytes(4, "little") + (RATE * 8).to_bytes(4, "little") + (8).to_bytes(2, "little"))
        out.write((32).to_bytes(2, "little") + b"data" + len(data).to_bytes(4, "little") + data)
    with open(args.path + ".beats", "w") as out:
        out.writelines(f"{time:.6f}\n" for time in times)


if __name__ == "__main__":
    main()
