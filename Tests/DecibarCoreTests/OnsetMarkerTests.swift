import DecibarCore
import Testing

@Suite("Bursts found in the waiting audio, for outputs that send on a grid")
struct OnsetMarkerTests {
    /// A 48 kHz stereo buffer of 256 frames: silence, then `level` from frame `from` on.
    static func buffer(level: Float, from: Int = 0, startFrame: Int64 = 0, heardEnd: Double = 0) -> AudioBuffer {
        let samples = (0 ..< 256).flatMap { index -> [Float] in index >= from ? [level, -level] : [0, 0] }
        var buffer = AudioBuffer(interleaved: samples, channelCount: 2, sampleRate: 48_000, startFrame: startFrame)
        buffer.captureTime = heardEnd
        return buffer
    }

    @Test("a click after silence is a burst at its first sample; the same level again is not; a 6 dB rise is once the recent peak has fallen")
    func marks() {
        var marker = OnsetMarker()
        #expect(marker.mark(Self.buffer(level: 0)) == nil)
        #expect(marker.mark(Self.buffer(level: 0.5, from: 96)) == 96.0 / 48_000)
        #expect(marker.mark(Self.buffer(level: 0.5)) == nil)
        // 0.9 is less than twice 0.5: the same sound going on.
        #expect(marker.mark(Self.buffer(level: 0.9)) == nil)
        // Below -50 dBFS nothing counts, even after silence.
        var quiet = OnsetMarker()
        #expect(quiet.mark(Self.buffer(level: 0.002)) == nil)
        #expect(quiet.mark(Self.buffer(level: 0.004, from: 10)) == 10.0 / 48_000)
        // After 50 ms of silence (its half-life) the recent peak is half: a sound as loud as the last is not a burst,
        // after 100 ms (a quarter) it is.
        var fading = OnsetMarker()
        _ = fading.mark(Self.buffer(level: 0.4))
        for _ in 0 ..< 9 { _ = fading.mark(Self.buffer(level: 0)) }  // 9 × 5.33 ms = 48 ms
        #expect(fading.mark(Self.buffer(level: 0.4)) == nil)
        for _ in 0 ..< 19 { _ = fading.mark(Self.buffer(level: 0)) }  // 101 ms
        #expect(fading.mark(Self.buffer(level: 0.4)) == 0)
    }

    @Test("the feed says when the next burst or beat is heard, with where its buffer starts; releasing it or discarding ends it")
    func feedEvents() throws {
        let feed = AudioFeed(marksOnsets: true)
        feed.delay = 0.1
        let duration = 256.0 / 48_000
        #expect(!feed.add(Self.buffer(level: 0, heardEnd: 10 + duration)))
        #expect(feed.add(Self.buffer(level: 0.5, from: 48, startFrame: 256, heardEnd: 10 + 2 * duration)))
        func near(_ value: Double?, _ expected: Double) -> Bool { value.map { abs($0 - expected) < 1e-9 } ?? false }
        let event = feed.nextEvent
        #expect(near(event?.start, 10 + duration + 0.1) && near(event?.time, 10 + duration + 48.0 / 48_000 + 0.1))
        // A beat due earlier comes first.
        feed.addBeat(at: 10.002, bpm: 120, confidence: 1)
        #expect(near(feed.nextEvent?.time, 10.102) && near(feed.nextEvent?.start, 10.102))
        // Released up to just before the burst's buffer: the burst still waits, the beat is heard.
        let burstStart = try #require(event?.start)
        _ = feed.release(heardBy: burstStart.nextDown)
        #expect(feed.nextEvent?.start == burstStart && feed.beatPulse.lastBeat.map { abs($0 - 10.102) < 1e-9 } == true)
        _ = feed.release(heardBy: burstStart)
        #expect(feed.nextEvent == nil)
        #expect(feed.add(Self.buffer(level: 0.9, from: 200, startFrame: 512, heardEnd: 10 + 3 * duration)) == false)
        _ = feed.add(Self.buffer(level: 0, startFrame: 768, heardEnd: 10 + 4 * duration))
        // A burst far above what came before: marked; gone after a seek.
        for index in 0 ..< 40 { _ = feed.add(Self.buffer(level: 0, startFrame: Int64(1024 + 256 * index), heardEnd: 10 + Double(5 + index) * duration)) }
        #expect(feed.add(Self.buffer(level: 0.9, startFrame: 11264, heardEnd: 10 + 45 * duration)))
        #expect(feed.nextEvent != nil)
        feed.discardWaiting()
        #expect(feed.nextEvent == nil)
        // A feed that does not mark onsets marks nothing.
        #expect(!AudioFeed().add(Self.buffer(level: 0.5)))
    }
}
