/// Builds `Peaks` progressively from 256-frame buffers as a file is decoded.
///
/// Memory holds one pending pair per channel plus the pairs made so far (about 80 KB for an hour
/// of stereo at 256 samples per pair); decoded audio is never kept. The trailing partial stretch
/// becomes a last pair in `finish()`, as audiowaveform does.
public struct PeaksBuilder: Sendable {
    public private(set) var peaks: Peaks
    private var pending: [PeakPair]
    private var pendingFrames = 0

    public init(sampleRate: Int, channelCount: Int, samplesPerPixel: Int = 256) {
        peaks = Peaks(sampleRate: sampleRate, samplesPerPixel: samplesPerPixel, channelCount: channelCount)
        pending = Array(repeating: .empty, count: channelCount)
    }

    /// Frames consumed so far.
    public private(set) var frameCount: Int64 = 0

    public mutating func process(_ buffer: AudioBuffer) {
        precondition(buffer.channelCount == peaks.channelCount, "buffer channel count differs from the peaks")
        buffer.withSamples { samples in
            process(interleaved: samples, frames: buffer.frameCount)
        }
    }

    /// Adds interleaved frames directly (any count).
    public mutating func process(interleaved samples: UnsafeBufferPointer<Float>, frames: Int) {
        let channels = peaks.channelCount
        let perPair = peaks.samplesPerPixel
        var frame = 0
        while frame < frames {
            let take = Swift.min(frames - frame, perPair - pendingFrames)
            for channel in 0 ..< channels {
                var pair = pending[channel]
                var index = frame * channels + channel
                for _ in 0 ..< take {
                    let sample = samples[index]
                    if !sample.isNaN { pair.include(sample) }
                    index += channels
                }
                pending[channel] = pair
            }
            frame += take
            pendingFrames += take
            if pendingFrames == perPair { closePair() }
        }
        frameCount += Int64(frames)
    }

    /// Closes the trailing partial pair, if any, and returns the finished peaks.
    public mutating func finish() -> Peaks {
        if pendingFrames > 0 { closePair() }
        return peaks
    }

    private mutating func closePair() {
        for channel in 0 ..< peaks.channelCount {
            let pair = pending[channel]
            peaks.pairs[channel].append(pair.isEmpty ? PeakPair(min: 0, max: 0) : pair)
            pending[channel] = .empty
        }
        pendingFrames = 0
    }
}
