import DecibarCore
import Foundation
import Testing

@Suite("Meters: peak caps, clip lamp, RMS window, ballistics")
struct MeterTests {
    /// Runs caps for `seconds` at a frame interval `dt`, the bar at 1 for the first frame and 0 after.
    func capAfter(seconds: Double, dt: Double, hold: Double = 1, fall: Float = 0.5) -> Float {
        var caps = PeakCaps(count: 1, holdTime: hold, fallRate: fall)
        caps.advance(toward: [1], dt: dt)
        var elapsed = 0.0
        while elapsed + dt <= seconds + 1e-9 {
            caps.advance(toward: [0], dt: dt)
            elapsed += dt
        }
        // Whatever is left of `seconds` as one short frame.
        if seconds - elapsed > 1e-9 { caps.advance(toward: [0], dt: seconds - elapsed) }
        return caps.values[0]
    }

    @Test("caps hold, then fall at the set rate, the same at 30, 60 and 144 frames a second",
          arguments: [1.0 / 30, 1.0 / 60, 1.0 / 144])
    func capsHoldThenFall(dt: Double) {
        #expect(capAfter(seconds: 0.5, dt: dt) == 1)
        #expect(capAfter(seconds: 0.99, dt: dt) == 1)
        #expect(abs(capAfter(seconds: 1.5, dt: dt) - 0.75) < 1e-4)
        #expect(abs(capAfter(seconds: 2.0, dt: dt) - 0.5) < 1e-4)
        // Never below the bar.
        #expect(capAfter(seconds: 4, dt: dt) == 0)
    }

    @Test("a cap jumps to a new maximum and starts its hold again")
    func capsRestartHold() {
        var caps = PeakCaps(count: 2, holdTime: 0.5, fallRate: 1)
        caps.advance(toward: [0.4, 0.2], dt: 0.1)
        caps.advance(toward: [0, 0], dt: 0.6) // 0.5 held, 0.1 falling
        #expect(abs(caps.values[0] - 0.3) < 1e-6 && abs(caps.values[1] - 0.1) < 1e-6)
        caps.advance(toward: [0.8, 0], dt: 0.1)
        #expect(caps.values[0] == 0.8)
        caps.advance(toward: [0, 0], dt: 0.4)
        #expect(caps.values[0] == 0.8)
    }

    @Test("the clip lamp lights at 0 dBFS, stays lit for 3 s after the last clip, then goes out")
    func clipLamp() {
        var lamp = ClipLamp()
        lamp.advance(peakDB: -0.1, dt: 1.0 / 60)
        #expect(!lamp.isLit)
        lamp.advance(peakDB: 0, dt: 1.0 / 60)
        #expect(lamp.isLit)
        for _ in 0 ..< 174 { lamp.advance(peakDB: -20, dt: 1.0 / 60) } // 2.9 s
        #expect(lamp.isLit)
        for _ in 0 ..< 7 { lamp.advance(peakDB: -20, dt: 1.0 / 60) } // 3.017 s
        #expect(!lamp.isLit)
        lamp.advance(peakDB: 3, dt: 1.0 / 60)
        #expect(lamp.isLit)
    }

    func sineBuffers(amplitude: Float, seconds: Double, rate: Int = 48000, start: inout Int64) -> [AudioBuffer] {
        let frames = Int(seconds * Double(rate))
        var buffers: [AudioBuffer] = []
        var frame = 0
        while frame < frames {
            let count = min(256, frames - frame)
            let samples = (0 ..< count).flatMap { index -> [Float] in
                let value = amplitude * Float(sin(2 * Double.pi * 1000 * Double(frame + index) / Double(rate)))
                return [value, value * 0.5]
            }
            buffers.append(AudioBuffer(interleaved: samples, channelCount: 2, sampleRate: rate, startFrame: start))
            start += Int64(count)
            frame += count
        }
        return buffers
    }

    @Test("the RMS window reads a full-scale sine at -3.01 dBFS and forgets it 300 ms after it stops")
    func rmsWindow() {
        var window = RMSWindow(channelCount: 2)
        #expect(window.rmsDB(channel: 0) == Decibels.floor)
        var start: Int64 = 0
        for buffer in sineBuffers(amplitude: 1, seconds: 1, start: &start) { window.add(buffer) }
        #expect(abs(window.rmsDB(channel: 0) - -3.0103) < 0.01)
        #expect(abs(window.rmsDB(channel: 1) - -9.0309) < 0.01)
        for buffer in sineBuffers(amplitude: 0, seconds: 0.2, start: &start) { window.add(buffer) }
        // A third of the window still holds the sine: 10·log10(1/3) lower.
        #expect(abs(window.rmsDB(channel: 0) - (-3.0103 - 4.77)) < 0.3)
        for buffer in sineBuffers(amplitude: 0, seconds: 0.11, start: &start) { window.add(buffer) }
        #expect(window.rmsDB(channel: 0) == Decibels.floor)
    }

    /// Seconds for the meter's peak bar to fall 20 dB after a 0 dB peak, at `dt`.
    func fallTime(_ ballistics: MeterBallistics, dt: Double) -> Double {
        var meter = LevelMeter(channelCount: 1, ballistics: ballistics)
        meter.advance(rmsDB: [-3], peakDB: [0], dt: dt)
        var elapsed = 0.0
        while meter.reading(channel: 0).peakDB > -20 + 1e-4 && elapsed < 10 {
            meter.advance(rmsDB: [-23], peakDB: [-20], dt: dt)
            elapsed += dt
        }
        return elapsed
    }

    @Test("IEC 60268-18 ballistics: a 20 dB drop falls in 1.7 ± 0.3 s at any frame rate",
          arguments: [1.0 / 30, 1.0 / 60, 1.0 / 144])
    func iecBallistics(dt: Double) {
        let time = fallTime(.iec, dt: dt)
        #expect(abs(time - 1.7) <= dt + 1e-9, "fell in \(time) s")
        #expect(abs(time - 1.7) <= 0.3)
        // The digital default is quicker: 20 dB at 40 dB/s.
        #expect(abs(fallTime(.digital, dt: dt) - 0.5) <= dt + 1e-9)
    }

    @Test("the meter's hold cap waits 1 s above the falling peak bar, then falls at 12 dB/s; clipping lights the lamp")
    func meterHold() {
        var meter = LevelMeter(channelCount: 2)
        meter.advance(rmsDB: [-10, -10], peakDB: [0, -6], dt: 1.0 / 60)
        #expect(meter.reading(channel: 0).isClipping && !meter.reading(channel: 1).isClipping)
        for _ in 0 ..< 54 { meter.advance(rmsDB: [-70, -70], peakDB: [-70, -70], dt: 1.0 / 60) } // 0.9 s
        #expect(meter.reading(channel: 0).holdDB == 0)
        #expect(meter.reading(channel: 1).holdDB == -6)
        for _ in 0 ..< 36 { meter.advance(rmsDB: [-70, -70], peakDB: [-70, -70], dt: 1.0 / 60) } // 1.5 s
        #expect(abs(meter.reading(channel: 0).holdDB - -6) < 0.01)
        #expect(meter.reading(channel: 0).rmsDB == -70)
    }
}
