import RealModule

/// Finds where a burst starts in a stream of buffers: a buffer whose peak rises well above the
/// recent peaks (a click, a drum after a rest). Outputs that send on a grid move a packet onto
/// such a moment so the burst leaves when it is heard, not up to half a packet either side.
///
/// One pass over each buffer's samples; nothing allocated.
public struct OnsetMarker: Sendable {
    /// The recent peak, falling by half every `halfLife` seconds of audio.
    private var envelope: Float = 0

    /// A burst rises at least this much above the recent peak (6 dB).
    public static let rise: Float = 2
    /// Quieter than -50 dBFS is not a burst anyone sees.
    public static let floor: Float = 0.003_162_3
    public static let halfLife = 0.05

    public init() {}

    /// Takes the next buffer and returns the seconds from its first frame to the burst's first
    /// sample (the first at half the buffer's peak or more), or nil when it holds none.
    public mutating func mark(_ buffer: AudioBuffer) -> Double? {
        let channels = buffer.channelCount
        let peak = buffer.withSamples { samples in
            samples.reduce(Float(0)) { Swift.max($0, Swift.abs($1)) }
        }
        let previous = envelope
        envelope = Swift.max(peak, envelope * Float(Double.exp2(-buffer.duration / Self.halfLife)))
        guard peak >= Self.floor, peak >= Self.rise * previous else { return nil }
        let half = peak / 2
        let index = buffer.withSamples { samples in samples.firstIndex { Swift.abs($0) >= half } ?? 0 }
        return Double(index / channels) / Double(buffer.sampleRate)
    }

    /// Forgets the recent peaks (a new track: its first sound is a burst of its own).
    public mutating func reset() { envelope = 0 }
}
