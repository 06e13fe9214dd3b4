import DecibarCore
import Foundation
import Testing

@Suite("Beats: onset strength, tempo, tracking, pulse and lines")
struct BeatCoreTests {
    static let hopsPerSecond = 187.5  // 48 kHz, 256-frame hops

    @Test("the line of a beat, of the tempo, and of no tempo yet")
    func lines() {
        #expect(BeatLine.json(time: 12.345, isBeat: true, bpm: 120.0249, confidence: 0.931)
                == #"{"t": 12.345, "beat": true, "bpm": 120.02, "confidence": 0.93}"#)
        #expect(BeatLine.json(time: 13.5, isBeat: false, bpm: 97, confidence: 1) == #"{"t": 13.500, "bpm": 97.00, "confidence": 1.00}"#)
        #expect(BeatLine.json(time: 0, isBeat: false, bpm: nil, confidence: 0) == #"{"t": 0.000, "bpm": null, "confidence": 0.00}"#)
    }

    @Test("the accent's flash: tips half-way to white at 0.5, centers a quarter; the background stays")
    func flash() {
        let theme = BarTheme(background: Color(red: 0.1, green: 0.1, blue: 0.1), center: Color(red: 0, green: 0.2, blue: 1),
                             tip: Color(red: 1, green: 0, blue: 0.5))
        let flashed = theme.brightened(by: 0.5)
        #expect(flashed.tip == Color(red: 1, green: 0.5, blue: 0.75))
        #expect(flashed.center == Color(red: 0.25, green: 0.4, blue: 1))
        #expect(flashed.background == theme.background)
        #expect(theme.brightened(by: 0) == theme)
    }

    @Test("the pulse: 1 at the beat, halving every 80 ms; the phase rises from 0 to 1 across the beat")
    func pulse() {
        let pulse = BeatPulse(lastBeat: 10, bpm: 120, confidence: 0.9)
        #expect(pulse.level(at: 10) == 1)
        #expect(abs(pulse.level(at: 10.08) - 0.5) < 1e-6)
        #expect(abs(pulse.level(at: 10.16) - 0.25) < 1e-6)
        #expect(pulse.phase(at: 10) == 0)
        #expect(abs(pulse.phase(at: 10.25) - 0.5) < 1e-6)
        #expect(pulse.phase(at: 11) == 1)
        #expect(BeatPulse().level(at: 5) == 0 && BeatPulse().phase(at: 5) == 0)
        #expect(BeatPulse(lastBeat: 1, bpm: 0).phase(at: 1.2) == 0)
    }

    @Test("the feed says a beat once it is heard (its time plus the feed's delay), the newest of those due; a seek forgets those waiting")
    func feed() {
        let feed = AudioFeed()
        feed.delay = 0.05
        feed.addBeat(at: 1.0, bpm: 120, confidence: 0.5)
        feed.addBeat(at: 1.5, bpm: 121, confidence: 0.6)
        _ = feed.release(heardBy: 1.04)
        #expect(feed.beatPulse.lastBeat == nil)
        _ = feed.release(heardBy: 1.05)
        #expect(feed.beatPulse == BeatPulse(lastBeat: 1.05, bpm: 120, confidence: 0.5))
        _ = feed.release(heardBy: 3)
        #expect(feed.beatPulse == BeatPulse(lastBeat: 1.55, bpm: 121, confidence: 0.6))
        feed.addBeat(at: 4, bpm: 122, confidence: 0.7)
        feed.discardWaiting()
        _ = feed.release(heardBy: 5)
        #expect(feed.beatPulse.lastBeat == 1.55)
    }

    @Test("onset strength: nothing for the first two hops, then the log rise of each band over two hops; a fall counts nothing")
    func onsetStrength() {
        // 48 kHz, 1024-point spectra: 46.875 Hz a bin.
        var onsets = OnsetStrength(binCount: 513, binWidth: 46.875)
        #expect(onsets.bandEdges.first == 1 && onsets.bandCount == 24)
        let band = onsets.bandEdges[10]
        let silent = [Float](repeating: 0, count: 513)
        var loud = silent
        loud[band] = 0.01
        func strength(_ power: [Float]) -> Float { power.withUnsafeBufferPointer { onsets.strength(fromPower: $0) } }
        #expect(strength(silent) == 0)
        #expect(strength(loud) == 0)
        // Against two hops before (silence): log(1 + 1e6 · 0.01).
        #expect(abs(strength(loud) - log(1 + 1e4)) < 1e-4)
        #expect(strength(loud) == 0)
        #expect(strength(silent) == 0)
        onsets.reset()
        #expect(strength(loud) == 0)
    }

    @Test("onset strength of a spectrum that ends below the lowest band (a 1 Hz stream: 129 bins of 1/256 Hz): its top two bins are the bands, and a rise there counts")
    func onsetStrengthBelowItsBands() {
        var onsets = OnsetStrength(binCount: 129, binWidth: 1.0 / 256)
        #expect(onsets.bandEdges == [127, 128, 129])
        let silent = [Float](repeating: 0, count: 129)
        var loud = silent
        loud[127] = 0.01
        loud[128] = 0.01
        func strength(_ power: [Float]) -> Float { power.withUnsafeBufferPointer { onsets.strength(fromPower: $0) } }
        #expect(strength(silent) == 0)
        #expect(strength(loud) == 0)
        #expect(abs(strength(loud) - 2 * log(1 + 1e4)) < 1e-4)
    }

    /// Impulses of strength 10 every `period` hops (rounded to the nearest hop) for `seconds`.
    static func impulses(period: Double, seconds: Double, from first: Double = 20) -> [Float] {
        var strengths = [Float](repeating: 0, count: Int(seconds * hopsPerSecond))
        var position = first
        while Int(position.rounded()) < strengths.count {
            strengths[Int(position.rounded())] = 10
            position += period
        }
        return strengths
    }

    @Test("tempo of impulse trains: 120 BPM, 60 BPM (not 120), 174 BPM (not 87); silence has none",
          arguments: [(120.0, 120.0), (60.0, 60.0), (174.0, 174.0), (97.0, 97.0)])
    func tempo(bpm: Double, expected: Double) throws {
        var estimator = TempoEstimator(hopsPerSecond: Self.hopsPerSecond)
        for strength in Self.impulses(period: 60 * Self.hopsPerSecond / bpm, seconds: 8) { estimator.add(strength) }
        let estimated = estimator.estimate()
        let estimate = try #require(estimated)
        let found = 60 * Self.hopsPerSecond / estimate.period
        #expect(abs(found - expected) < 0.01 * expected, "\(found) BPM")
        var silent = TempoEstimator(hopsPerSecond: Self.hopsPerSecond)
        for _ in 0 ..< 1500 { silent.add(0) }
        let none = silent.estimate()
        #expect(none == nil)
    }

    @Test("tracking 120 BPM impulses: each beat on its impulse's hop from 4 s on, the tempo 120; when they stop, three beats carried over the rest, then none")
    func tracking() {
        var tracker = BeatTracker(hopsPerSecond: Self.hopsPerSecond)
        let period = 93.75
        let strengths = Self.impulses(period: period, seconds: 10) + [Float](repeating: 0, count: Int(5 * Self.hopsPerSecond))
        var beats: [BeatTracker.Beat] = []
        for strength in strengths {
            if let beat = tracker.add(strength) { beats.append(beat) }
        }
        let impulseHops = Set(strengths.indices.filter { strengths[$0] > 0 })
        let heard = beats.filter(\.isHeard)
        #expect(heard.allSatisfy { impulseHops.contains(Int($0.hop)) && $0.hop == $0.hop.rounded() }, "\(heard.map(\.hop))")
        let fromFour = impulseHops.filter { Double($0) >= 4 * Self.hopsPerSecond }
        #expect(Set(heard.map { Int($0.hop) }).isSuperset(of: fromFour))
        #expect(abs((heard.last?.bpm ?? 0) - 120) < 0.5)
        let carried = beats.filter { !$0.isHeard }
        #expect(carried.count == 3, "\(carried.map(\.hop))")  // the fourth unheard is the rest: not told
        #expect(carried.allSatisfy { $0.hop > Double(impulseHops.max()!) })
    }
}
