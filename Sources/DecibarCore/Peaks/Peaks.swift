/// Min/max pairs per channel, one pair per `samplesPerPixel` frames: the waveform overview model
/// of BBC audiowaveform, kept in floating point (-1...1) until it is written out.
public struct Peaks: Sendable, Equatable {
    public let sampleRate: Int
    public let samplesPerPixel: Int
    public let channelCount: Int
    /// `pairs[channel][index]`.
    public internal(set) var pairs: [[PeakPair]]

    public init(sampleRate: Int, samplesPerPixel: Int, channelCount: Int, pairs: [[PeakPair]]? = nil) {
        precondition(samplesPerPixel >= 2 && sampleRate >= 1 && channelCount >= 1, "invalid peaks header")
        self.sampleRate = sampleRate
        self.samplesPerPixel = samplesPerPixel
        self.channelCount = channelCount
        self.pairs = pairs ?? Array(repeating: [], count: channelCount)
    }

    /// Pairs per channel.
    public var length: Int { pairs.first?.count ?? 0 }

    /// Seconds covered by the pairs so far.
    public var duration: Double { Double(length * samplesPerPixel) / Double(sampleRate) }

    /// The largest magnitude anywhere, for normalizing the display.
    public var largestMagnitude: Float {
        pairs.lazy.flatMap { $0 }.reduce(0) { Swift.max($0, $1.magnitude) }
    }
}
