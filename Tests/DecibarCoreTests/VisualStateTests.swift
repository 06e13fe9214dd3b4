import DecibarCore
import Testing

/// A stand-in for the FFTW analyzer: reports fixed band levels, and how often it was asked.
private final class FixedBands: BandAnalyzer {
    let bands: SpectrumBands
    var levels: [[Float]]
    var calls = 0

    init(sampleRate: Int, count: Int, levels: [[Float]]) {
        bands = SpectrumBands(sampleRate: sampleRate, count: count)
        self.levels = levels
    }

    func analyze(fill: (Int, UnsafeMutableBufferPointer<Float>) -> Void) -> [[Float]] {
        calls += 1
        return levels
    }
}

@Suite("Pictures' states, without a window")
struct VisualStateTests {
    /// A feed that has released one buffer of `channels` channels of a -6 dBFS square at `rate`.
    func feed(channels: Int = 2, rate: Int = 48000) -> AudioFeed {
        let feed = AudioFeed()
        var buffer = AudioBuffer(interleaved: [Float](repeating: 0.5, count: 256 * channels), channelCount: channels, sampleRate: rate)
        buffer.captureTime = 1
        feed.add(buffer)
        _ = feed.release(heardBy: 10)
        return feed
    }

    let loud = LevelReading(rmsDB: [-6, -6], peakDB: [-6, -6], frameCount: 800, combinedRMSDB: -6, combinedPeakDB: -6)
    let none = LevelReading.silence(channelCount: 2)

    /// Moves `state` on by one frame of `clock`; returns the frame.
    @discardableResult
    func step(_ state: inout some VisualState, _ clock: inout VisualClock, reading: LevelReading, feed: AudioFeed,
              dt: Double, now: Double, canvasWidth: Int = 1280) -> VisualFrame {
        let frame = clock.frame(reading: reading, feed: feed, dt: dt, now: now, canvasWidth: canvasWidth)
        state.update(frame)
        return frame
    }

    @Test("bars rise with sound, and after it stops fall to rest in the same time at 30, 60 and 144 frames a second",
          arguments: [30.0, 60.0, 144.0])
    func restAtAnyFrameRate(fps: Double) {
        var state = LevelBarsState(settings: .init())
        var clock = VisualClock()
        let audio = feed()
        let dt = 1 / fps
        var now = 0.0
        for _ in 0 ..< Int(fps) {
            now += dt
            step(&state, &clock, reading: loud, feed: audio, dt: dt, now: now)
        }
        #expect(state.field.values.count == VisualSettings.defaultBarCount)
        #expect(state.meanValue > 0.5 && !state.isAtRest)
        // Sound stops: within 0.1 s the targets drop; the 158 ms release takes the bars below
        // 1/2000 within about 1.3 s (ln(2000)·0.158 s) after that.
        let stopped = now
        while !state.isAtRest && now - stopped < 5 {
            now += dt
            step(&state, &clock, reading: none, feed: audio, dt: dt, now: now)
        }
        #expect(state.isAtRest)
        #expect(abs((now - stopped) - 1.35) < 0.1, "at rest after \(now - stopped) s at \(fps) fps")
    }

    @Test("with the beat accent, bars are 18 % taller when a beat is heard, 9 % 80 ms later, and as smoothed once it fades; without, untouched")
    func beatAccent() {
        var settings = VisualSettings()
        // The plain mapping: -30 dBFS fills half a bar, and a lift does not reach the top.
        settings.sensitivity = .off
        var plain = LevelBarsState(settings: settings)
        settings.beatAccent = true
        var accented = LevelBarsState(settings: settings)
        var plainClock = VisualClock(), accentedClock = VisualClock()
        var last: VisualFrame?
        let audio = feed()
        audio.addBeat(at: 2, bpm: 120, confidence: 1)
        var frame = 0
        let quiet = LevelReading(rmsDB: [-30, -30], peakDB: [-30, -30], frameCount: 800, combinedRMSDB: -30, combinedPeakDB: -30)
        // Frames every 10 ms, to `time`.
        func advance(to time: Double) {
            while frame < Int((time * 100).rounded()) {
                frame += 1
                let now = Double(frame) / 100
                _ = audio.release(heardBy: now)
                last = self.step(&accented, &accentedClock, reading: quiet, feed: audio, dt: 0.01, now: now)
                self.step(&plain, &plainClock, reading: quiet, feed: audio, dt: 0.01, now: now)
            }
        }
        // Each bar is the plain one times the lift, held under the top.
        func isLifted(by lift: Float) -> Bool {
            zip(accented.field.values, plain.field.values).allSatisfy { abs($0 - min(1, $1 * lift)) < 1e-5 }
        }
        advance(to: 1.99)
        #expect(isLifted(by: 1) && last?.beatLevel == 0)
        advance(to: 2.0)
        #expect(isLifted(by: 1.18) && last?.beatLevel == 1)
        advance(to: 2.08)
        #expect(isLifted(by: 1.09))
        #expect(abs((last?.beatPhase ?? 0) - 0.16) < 1e-3 && last?.beat.bpm == 120)
        advance(to: 4)
        #expect(isLifted(by: 1))  // 2 s on, the pulse is 2^-25
        #expect((last?.beatLevel ?? 0) > 0 && plain.field.values == plain.field.smoother.values)
    }

    @Test("the bar count follows --bars, or the canvas with a fixed bar width")
    func barCount() {
        var settings = VisualSettings()
        settings.bars = 7
        #expect(settings.barCount(canvasWidth: 1280) == 7)
        settings.bars = nil
        settings.layout.fixedWidth = (10, 5)
        let fitting = settings.barCount(canvasWidth: 1280)
        #expect(fitting == settings.layout.fittingCount(canvasWidth: 1280))
    }

    @Test("spectrum: band levels are scaled to the floor and arranged, lows meeting in the middle")
    func spectrum() {
        let analyzer = FixedBands(sampleRate: 48000, count: 2, levels: [[-10, -70], [0, -35]])
        var settings = VisualSettings()
        settings.bars = 4
        settings.smoothing = SmoothingTimes(attack: 0, release: 0)
        settings.sensitivity = .off
        var state = SpectrumState(settings: settings) { rate, bands in
            rate == 48000 && bands == 2 ? analyzer : nil
        }
        var clock = VisualClock()
        step(&state, &clock, reading: loud, feed: feed(), dt: 1.0 / 60, now: 10)
        #expect(analyzer.calls == 1)
        let expected: [Float] = [0, 60.0 / 70, 1, 0.5]
        #expect(zip(state.field.targets, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(state.field.targets)")
        #expect(zip(state.field.values, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(state.field.values)")
    }

    @Test("spectrum with automatic sensitivity: the loudest band sits at the headroom, the floor's span below it")
    func spectrumAutomatic() {
        let analyzer = FixedBands(sampleRate: 48000, count: 2, levels: [[-22, -82], [-12, -47]])
        var settings = VisualSettings()
        settings.bars = 4
        settings.smoothing = SmoothingTimes(attack: 0, release: 0)
        var state = SpectrumState(settings: settings) { _, _ in analyzer }
        var clock = VisualClock()
        step(&state, &clock, reading: loud, feed: feed(), dt: 1.0 / 60, now: 10)
        // 12 dB quieter than the plain test above, and drawn the same, scaled by the headroom 0.95.
        let expected: [Float] = [0, 0.95 * 60 / 70, 0.95, 0.95 * 0.5]
        #expect(zip(state.field.targets, expected).allSatisfy { abs($0 - $1) < 1e-5 }, "\(state.field.targets)")
    }

    @Test("meter: one bar for mono, two for stereo; RMS from the feed's 300 ms window, peaks from the reading")
    func meter() {
        var state = MeterState(settings: .init())
        var clock = VisualClock()
        let mono = LevelReading(rmsDB: [-6], peakDB: [-6], frameCount: 256, combinedRMSDB: -6, combinedPeakDB: -6)
        step(&state, &clock, reading: mono, feed: feed(channels: 1), dt: 1.0 / 60, now: 10)
        #expect(state.channels == 1)
        step(&state, &clock, reading: loud, feed: feed(channels: 2), dt: 1.0 / 60, now: 10.1)
        #expect(state.channels == 2)
        let reading = state.meter.reading(channel: 1)
        // A 0.5 square is -6.02 dBFS RMS; the 300 ms window holds 256 frames of it.
        #expect(abs(reading.rmsDB - -6.02) < 0.05 && abs(reading.peakDB - -6) < 0.01, "\(reading)")
        #expect(!state.isAtRest)
    }
}
