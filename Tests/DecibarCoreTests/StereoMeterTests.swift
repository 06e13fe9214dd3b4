import DecibarCore
import Foundation
import Testing

@Suite("Stereo meter: correlation, balance, width")
struct StereoMeterTests {
    /// Interleaved stereo from two per-frame functions, 1 s at 48 kHz.
    func stereo(_ left: (Int) -> Double, _ right: (Int) -> Double, frames: Int = 48000) -> [Float] {
        var samples: [Float] = []
        samples.reserveCapacity(frames * 2)
        for frame in 0 ..< frames {
            samples.append(Float(left(frame)))
            samples.append(Float(right(frame)))
        }
        return samples
    }

    func reading(_ samples: [Float], channels: Int = 2) -> StereoReading {
        var meter = StereoMeter()
        for buffer in Signals.buffers(samples, channels: channels) { meter.add(buffer) }
        return meter.reading
    }

    func tone(_ frame: Int) -> Double { 0.5 * sin(2 * Double.pi * 440 * Double(frame) / 48000) }

    @Test("the same on both sides: correlation 1, balance 0, width 0")
    func mono() {
        let result = reading(stereo(tone, tone))
        #expect(abs(result.correlation - 1) < 1e-9)
        #expect(abs(result.balance) < 1e-9)
        #expect(abs(result.width) < 1e-9)
    }

    @Test("the right side inverted: correlation -1, width 1")
    func inverted() {
        let result = reading(stereo(tone, { -tone($0) }))
        #expect(abs(result.correlation + 1) < 1e-9)
        #expect(abs(result.width - 1) < 1e-9)
    }

    @Test("left alone: balance -1; right alone: +1; half the power on the right: -1/3")
    func balance() {
        #expect(reading(stereo(tone, { _ in 0 })).balance == -1)
        #expect(reading(stereo({ _ in 0 }, tone)).balance == 1)
        // Power 1 on the left, 0.5 on the right: (0.5 - 1) / 1.5.
        let halfPower = reading(stereo(tone, { tone($0) / 2.0.squareRoot() }))
        #expect(abs(halfPower.balance + 1.0 / 3) < 1e-6)
        #expect(abs(halfPower.correlation - 1) < 1e-6)
    }

    @Test("two unrelated noises: correlation near 0, width near one half")
    func independentNoise() {
        var generator = SeededRandom(seed: 7)
        let samples = (0 ..< 96000).map { _ in Float.random(in: -0.5 ..< 0.5, using: &generator) }
        let result = reading(samples)
        #expect(abs(result.correlation) < 0.1)
        #expect(abs(result.width - 0.5) < 0.05)
    }

    @Test("a sine and its cosine (90 degrees apart) correlate 0")
    func quadrature() {
        let result = reading(stereo(tone, { 0.5 * cos(2 * Double.pi * 440 * Double($0) / 48000) }))
        #expect(abs(result.correlation) < 0.02)
    }

    @Test("mono input reads as mono; silence reads 0 everywhere")
    func monoAndSilence() {
        let one = reading(Signals.sine(amplitude: 0.5, channels: 1), channels: 1)
        #expect(abs(one.correlation - 1) < 1e-9)
        #expect(reading([Float](repeating: 0, count: 9600)) == StereoReading(correlation: 0, balance: 0, width: 0))
    }

    @Test("the reading follows the sound within a few time constants")
    func follows() {
        var meter = StereoMeter()
        for buffer in Signals.buffers(stereo(tone, tone), channels: 2) { meter.add(buffer) }
        for buffer in Signals.buffers(stereo(tone, { -tone($0) }), channels: 2) { meter.add(buffer) }
        // After 1 s (more than three time constants) of inverted sound the old second weighs e^-3.3.
        #expect(meter.reading.correlation < -0.9)
    }

    @Test("the line: keys in order, three places")
    func line() {
        let text = StereoLine.json(time: 1.5, reading: StereoReading(correlation: 0.98765, balance: -1, width: 0.25))
        #expect(text == #"{"t": 1.500, "correlation": 0.988, "balance": -1.000, "width": 0.250}"#)
    }
}
