import DecibarAudio
import DecibarCore

/// What is told of the beat: a beat as it is found, or the tempo when a second went by without one.
struct BeatEvent: Sendable, Equatable {
    /// On the buffers' clock: when the beat's sound starts, or the end of the audio taken.
    var time: Double
    var isBeat: Bool
    /// Nil until the tracker is sure of the tempo (`BeatTracker.lockConfidence`).
    var bpm: Double?
    var confidence: Double

    /// Its line, as `levels --mode beats` prints it, with `t` on the clock of `time - origin`.
    func appendLine(origin: Double = 0, to bytes: inout [UInt8]) {
        BeatLine.append(time: time - origin, isBeat: isBeat, bpm: bpm, confidence: confidence, to: &bytes)
    }
}

/// Beats of a stream of buffers, found as the buffers arrive, each with the time its sound
/// starts on the buffers' clock: a buffer's stamp is when its last frame is (or was) heard, so a
/// beat `n` frames before that end is `n / rate` seconds earlier; a file's buffers (no stamp) use
/// file time. A new rate or a gap in the frame count (a seek, another device) starts afresh.
/// It belongs to one task at a time.
struct BeatFinder {
    private var detector: BeatDetector?
    /// The time of the last event told.
    private var lastEvent = -Double.infinity
    /// Seconds without a beat after which the tempo is told.
    static let tempoInterval = 1.0

    /// Takes the next buffer; `told` gets each beat found by its end, or the tempo when
    /// `tempoInterval` passed without an event.
    mutating func add(_ buffer: AudioBuffer, told: (BeatEvent) -> Void) {
        if detector?.sampleRate != buffer.sampleRate {
            detector = BeatDetector(sampleRate: buffer.sampleRate)
            lastEvent = -.infinity
        }
        guard let detector else { return }
        if buffer.startFrame != detector.endFrame { detector.reset() }
        let rate = Double(buffer.sampleRate)
        let end = Double(buffer.startFrame + Int64(buffer.frameCount))
        let stamp = buffer.captureTime
        func time(of frame: Double) -> Double { stamp > 0 ? stamp - (end - frame) / rate : frame / rate }
        var found = false
        detector.add(buffer) { beat in
            found = true
            // A tempo read from a beat or two is not told yet: the status and the lines would
            // show one at confidence 0.
            let bpm = beat.confidence >= BeatTracker.lockConfidence ? beat.bpm : nil
            let event = BeatEvent(time: time(of: beat.frame), isBeat: true, bpm: bpm, confidence: beat.confidence)
            lastEvent = event.time
            told(event)
        }
        let now = time(of: end)
        if !found, now - lastEvent >= Self.tempoInterval {
            lastEvent = now
            told(BeatEvent(time: now, isBeat: false, bpm: detector.isLocked ? detector.bpm : nil, confidence: detector.confidence))
        }
    }
}
