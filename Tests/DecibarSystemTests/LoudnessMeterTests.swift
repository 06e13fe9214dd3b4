import DecibarAudio
import DecibarCore
import Foundation
import Testing

/// The meter that oversamples only the blocks that can raise the true peak gives libebur128's
/// figures to the bit: the same as running every block through its true-peak interpolator.
@Suite("Loudness meter: gated true peak")
struct LoudnessMeterTests {
    /// Music-like material: a kick and a snare of decaying noise, a bass and a chord whose level
    /// swells and falls, a quiet bridge, then a louder last chorus with inter-sample overs (a
    /// quarter-rate tone at 45 degrees: its samples reach 0.71 of its true height).
    static func song(sampleRate: Int, channelCount: Int, seconds: Double) -> [Float] {
        let frames = Int(seconds * Double(sampleRate))
        var samples = [Float](repeating: 0, count: frames * channelCount)
        var noise: UInt32 = 0x1234_5678
        func random() -> Float {
            noise ^= noise << 13; noise ^= noise >> 17; noise ^= noise << 5
            return Float(noise) / Float(UInt32.max) * 2 - 1
        }
        let rate = Double(sampleRate)
        let beat = 0.5
        for frame in 0 ..< frames {
            let time = Double(frame) / rate
            let inBeat = time.truncatingRemainder(dividingBy: beat)
            let bar = Int(time / beat)
            let section = time / seconds
            let dynamics = section < 0.4 ? 0.5 + section : section < 0.6 ? 0.15 : 1.0
            let kick = (bar % 2 == 0 ? 1.0 : 0) * sin(2 * .pi * 55 * inBeat) * exp(-inBeat * 18)
            let snare = (bar % 2 == 1 ? 1.0 : 0) * Double(random()) * exp(-inBeat * 25)
            let bass = 0.3 * sin(2 * .pi * 82.4 * time)
            let chord = [261.6, 329.6, 392.0].reduce(0.0) { $0 + 0.12 * sin(2 * .pi * $1 * time) }
                * (0.6 + 0.4 * sin(2 * .pi * 0.25 * time))
            var mix = dynamics * 0.5 * (0.45 * kick + 0.3 * snare + bass + chord)
            if section > 0.8, inBeat > 0.2, inBeat < 0.22 {
                mix = 0.95 * sin(2 * .pi * rate / 4 * time + .pi / 4)
            }
            for channel in 0 ..< channelCount {
                let pan = channelCount == 1 ? 1.0 : 0.7 + 0.3 * Double(channel % 2)
                samples[frame * channelCount + channel] = Float(mix * pan)
            }
        }
        return samples
    }

    /// Feeds the samples in 256-frame buffers (the last one shorter) and returns the reading.
    static func measure(_ samples: [Float], sampleRate: Int, channelCount: Int, gated: Bool) -> (LoudnessReading, LoudnessMeter) {
        let meter = LoudnessMeter(gatesTruePeak: gated)
        let step = AudioBuffer.frameCapacity * channelCount
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + step)
            meter.add(AudioBuffer(interleaved: samples[start ..< end], channelCount: channelCount, sampleRate: sampleRate))
            start = end
        }
        return (meter.reading, meter)
    }

    @Test(arguments: [(44_100, 2), (48_000, 1), (48_000, 2), (48_000, 6), (96_000, 2), (192_000, 2)])
    func sameFiguresAsEveryBlockOversampled(sampleRate: Int, channelCount: Int) {
        let samples = Self.song(sampleRate: sampleRate, channelCount: channelCount, seconds: 12)
        let (gated, meter) = Self.measure(samples, sampleRate: sampleRate, channelCount: channelCount, gated: true)
        let (every, _) = Self.measure(samples, sampleRate: sampleRate, channelCount: channelCount, gated: false)
        #expect(gated == every, "\(sampleRate) Hz, \(channelCount) channels")
        for channel in 0 ..< channelCount {
            #expect(gated.truePeakDBTP(channel: channel) == every.truePeakDBTP(channel: channel))
        }
        // The overs lift the true peak above the highest sample, so the interpolator did run.
        let samplePeak = samples.reduce(Float(0)) { max($0, abs($1)) }
        if sampleRate < 192_000 {
            #expect(gated.truePeakDBTP > 20 * log10(Double(samplePeak)) + 1, "\(gated.truePeakDBTP) dBTP")
        }
        // Once the peak is set many blocks are passed over (here 36 % are oversampled at 48 kHz,
        // 47 % at 96 kHz, whose 2x interpolator's gain is larger).
        #expect(meter.oversampledBlockCount * 10 < meter.blockCount * 6,
                "oversampled \(meter.oversampledBlockCount) of \(meter.blockCount) blocks")
    }

    /// Blocks of a few frames (a file's last buffer, a stream's odd deliveries) keep the history right.
    @Test func shortBlocksGiveTheSameFigures() {
        let samples = Self.song(sampleRate: 48_000, channelCount: 2, seconds: 6)
        let gated = LoudnessMeter(gatesTruePeak: true)
        let every = LoudnessMeter(gatesTruePeak: false)
        var start = 0
        var size = 1
        while start < samples.count {
            let end = min(samples.count, start + size * 2)
            let buffer = AudioBuffer(interleaved: samples[start ..< end], channelCount: 2, sampleRate: 48_000)
            gated.add(buffer)
            every.add(buffer)
            start = end
            size = size % 97 + 1
        }
        #expect(gated.reading == every.reading)
        #expect(gated.oversampledBlockCount < gated.blockCount / 2)
    }

    @Test func resetForgetsThePeak() {
        let samples = Self.song(sampleRate: 48_000, channelCount: 2, seconds: 12)
        let (loud, meter) = Self.measure(samples, sampleRate: 48_000, channelCount: 2, gated: true)
        meter.reset()
        let quiet = samples.prefix(48_000 * 2).map { $0 * 0.1 }
        let (every, _) = Self.measure(Array(quiet), sampleRate: 48_000, channelCount: 2, gated: false)
        for start in stride(from: 0, to: quiet.count, by: 512) {
            meter.add(AudioBuffer(interleaved: quiet[start ..< min(quiet.count, start + 512)], channelCount: 2, sampleRate: 48_000))
        }
        #expect(meter.reading.truePeakDBTP == every.truePeakDBTP)
        #expect(meter.reading.truePeakDBTP < loud.truePeakDBTP - 15)
    }
}
