/// Picks the blocks that can raise a running true peak, so the oversampling (the costly part of a
/// loudness meter) runs only on those, and the peak comes out exactly as if it had run on all.
///
/// An oversampled value is a weighted sum of the last few input samples, so it is at most `gain`
/// (the largest sum of absolute weights over the interpolator's phases) times the largest of
/// them. A block whose samples, and the `historyFrames` frames before it, stay at or below
/// `peak / gain` in every channel cannot beat the peak already measured and is passed over. Once
/// a loud passage has set the peak, most of a track is. The interpolator keeps a few frames of
/// history, so after a gap it must first be fed the frames before the block (`history`).
public struct TruePeakGate: Sendable {
    public static let maximumChannels = AudioBuffer.maxChannels
    /// Frames kept from before each block: at least the history an interpolator of up to 64 taps
    /// per phase reads.
    public static let historyFrames = 32

    public let channelCount: Int
    public let gain: Double
    /// The true peak measured so far in each channel (linear).
    private var peaks: InlineArray<8, Double>
    /// The last `historyFrames` frames seen, interleaved (zeros before the first: where an
    /// interpolator starts).
    private var tail: InlineArray<256, Float>
    /// Whether the interpolator was fed the block before the current one.
    public private(set) var interpolatorIsCurrent = true

    /// - Parameter gain: the interpolator's largest sum of absolute weights over its phases (1 for none).
    public init(channelCount: Int, gain: Double) {
        precondition((1 ... Self.maximumChannels).contains(channelCount), "1 to 8 channels")
        self.channelCount = channelCount
        // A hair above the sum: an output is rounded to float once, half a unit in the last place at most.
        self.gain = gain * (1 + 1e-6)
        peaks = InlineArray(repeating: 0)
        tail = InlineArray(repeating: 0)
    }

    /// The true peak measured so far in `channel` (linear).
    public func peak(channel: Int) -> Double { peaks[channel] }

    /// Whether the block (interleaved, `frames` frames) must go through the interpolator. Call
    /// once per block, in order, then `record` each channel's peak if it went, and `advance`.
    public func needsMeasuring(_ samples: UnsafeBufferPointer<Float>, frames: Int) -> Bool {
        for channel in 0 ..< channelCount {
            var largest: Float = 0
            for frame in 0 ..< Self.historyFrames { largest = Swift.max(largest, abs(tail[frame &* channelCount &+ channel])) }
            var index = channel
            for _ in 0 ..< frames {
                largest = Swift.max(largest, abs(samples[index]))
                index &+= channelCount
            }
            // NaN compares false: such a block is measured.
            if !(gain * Double(largest) <= peaks[channel]) { return true }
        }
        return false
    }

    /// Notes the peak the interpolator found over a block it was fed.
    public mutating func record(peak linear: Double, channel: Int) {
        peaks[channel] = Swift.max(peaks[channel], linear)
    }

    /// The frames to feed the interpolator before a measured block when it missed the one before.
    public func withHistory<Result>(_ body: (UnsafeBufferPointer<Float>) -> Result) -> Result {
        let count = Self.historyFrames * channelCount
        return tail.span.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0 ..< count])) }
    }

    /// Moves past a block: keeps its last frames as the next block's history and notes whether the
    /// interpolator saw it.
    public mutating func advance(past samples: UnsafeBufferPointer<Float>, frames: Int, measured: Bool) {
        interpolatorIsCurrent = measured
        let kept = Swift.min(frames, Self.historyFrames)
        let shifted = (Self.historyFrames - kept) * channelCount
        // Older history moves to the front when the block is shorter than the history.
        for index in 0 ..< shifted { tail[index] = tail[index &+ kept &* channelCount] }
        let start = (frames - kept) * channelCount
        for index in 0 ..< kept * channelCount { tail[shifted &+ index] = samples[start &+ index] }
    }
}
