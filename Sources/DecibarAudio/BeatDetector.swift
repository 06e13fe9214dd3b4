import DecibarCore

/// Beats of a stream of buffers: each 256 frames (a hop), the newest ~21 ms of the mono mix go
/// through a Hann window and FFTW, `OnsetStrength` turns the spectrum into a strength, and
/// `BeatTracker` into beats. A beat is stamped with the frame where its sound starts. Storage
/// and the plan are made once; `add` allocates nothing. One instance belongs to one thread at a time.
public final class BeatDetector {
    /// A beat, placed in the stream.
    public struct Beat: Equatable, Sendable {
        /// The frame (counted like `AudioBuffer.startFrame`) where the beat's sound starts.
        public var frame: Double
        public var bpm: Double
        public var confidence: Double
        /// Whether an onset marked it (false: carried over a rest by the tempo).
        public var isHeard: Bool
    }

    public static let hop = AudioBuffer.frameCapacity
    /// From the end of the hop whose strength peaks to the start of the sound that made it, in
    /// windows: the flux peaks when the onset is near the middle of the window (measured on
    /// clicks and the band of `BeatDetectionTests`).
    static let onsetDelayInWindows = 0.45

    public let sampleRate: Int
    private let transform: FFTWTransform
    private let window: HannWindow
    private var onsets: OnsetStrength
    private var tracker: BeatTracker
    /// The newest `transform.length` frames of the mono mix, a ring.
    private var samples: [Float]
    private var power: [Float]
    private var writeIndex = 0
    private var framesInHop = 0
    /// Frames taken since the start (or the last reset), and the stream frame of the first.
    private var framesTaken: Int64 = 0
    private var firstFrame: Int64?

    /// Nil when FFTW cannot be loaded.
    public init?(sampleRate: Int) {
        // About 21 ms: 1024 frames at 44.1 and 48 kHz; at most the spectrum's longest (a header
        // claiming 2^31 Hz would otherwise plan a transform of 2^25 points).
        var length = 256
        while length < SpectrumBands.maximumFFTLength, Double(length * 2) <= Double(sampleRate) * 0.0214 * 1.5 { length *= 2 }
        guard let transform = FFTWTransform(length: length) else { return nil }
        self.sampleRate = sampleRate
        self.transform = transform
        window = HannWindow(length: length)
        onsets = OnsetStrength(binCount: transform.binCount, binWidth: Double(sampleRate) / Double(length))
        tracker = BeatTracker(hopsPerSecond: Double(sampleRate) / Double(Self.hop))
        samples = Array(repeating: 0, count: length)
        power = Array(repeating: 0, count: transform.binCount)
    }

    /// The tempo followed now (nil until one is known) and how sure it is.
    public var bpm: Double? { tracker.bpm }
    public var confidence: Double { tracker.confidence }
    /// Whether the beats are followed (see `BeatTracker.lockConfidence`).
    public var isLocked: Bool { tracker.isLocked }

    /// Frames from the start of a beat's sound to the end of the hop in which it is found, at
    /// the least: how late a live beat can be known.
    public var delayFrames: Double { Double(transform.length) * Self.onsetDelayInWindows + Double(Self.hop) }

    /// Takes the next buffer of the stream; `found` is called for each beat known by its end.
    public func add(_ buffer: AudioBuffer, found: (Beat) -> Void) {
        if firstFrame == nil { firstFrame = buffer.startFrame }
        let channels = buffer.channelCount
        let gain = 1 / Float(channels)
        buffer.withSamples { interleaved in
            samples.withUnsafeMutableBufferPointer { ring in
                var index = 0
                while index < interleaved.count {
                    var sum: Float = 0
                    for channel in 0 ..< channels { sum += interleaved[index + channel] }
                    ring[writeIndex] = sum * gain
                    writeIndex = writeIndex + 1 == ring.count ? 0 : writeIndex + 1
                    index += channels
                    framesInHop += 1
                    framesTaken += 1
                    if framesInHop == Self.hop {
                        framesInHop = 0
                        if let beat = analyzeHop(ring) { found(beat) }
                    }
                }
            }
        }
    }

    private func analyzeHop(_ ring: UnsafeMutableBufferPointer<Float>) -> Beat? {
        let start = writeIndex
        let strength: Float = power.withUnsafeMutableBufferPointer { power in
            transform.powerSpectrum(into: power, scale: window.powerScale) { input in
                window.coefficients.withUnsafeBufferPointer { coefficients in
                    // Oldest first: the ring from the write position on, then its start.
                    let tail = ring.count - start
                    for index in 0 ..< tail { input[index] = ring[start + index] * coefficients[index] }
                    for index in 0 ..< start { input[tail + index] = ring[index] * coefficients[tail + index] }
                }
            }
            return onsets.strength(fromPower: UnsafeBufferPointer(power))
        }
        guard let beat = tracker.add(strength) else { return nil }
        // Hop n ends at frame (n + 1)·hop of the stream.
        let end = Double(firstFrame ?? 0) + (beat.hop + 1) * Double(Self.hop)
        return Beat(frame: end - Double(transform.length) * Self.onsetDelayInWindows,
                    bpm: beat.bpm, confidence: beat.confidence, isHeard: beat.isHeard)
    }

    /// Frames taken so far, as a stream frame: the end of the newest buffer.
    public var endFrame: Int64 { (firstFrame ?? 0) + framesTaken }

    /// Forgets the stream (a seek, another track).
    public func reset() {
        onsets.reset()
        tracker.reset()
        for index in samples.indices { samples[index] = 0 }
        writeIndex = 0
        framesInHop = 0
        framesTaken = 0
        firstFrame = nil
    }
}
