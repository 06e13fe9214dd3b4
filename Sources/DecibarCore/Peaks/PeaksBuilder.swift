/// Builds `Peaks` progressively from 256-frame buffers as a file is decoded.
///
/// Memory holds one pending pair per channel plus the pairs made so far (8 bytes a pair: about
/// 10 MB for an hour of 44.1 kHz stereo at 256 samples per pair); decoded audio is never kept. The trailing partial stretch
/// becomes a last pair in `finish()`, as audiowaveform does.
public struct PeaksBuilder: Sendable {
    public private(set) var peaks: Peaks
    private var pending: [PeakPair]
    private var pendingFrames = 0

    public init(sampleRate: Int, channelCount: Int, samplesPerPixel: Int = 256) {
        peaks = Peaks(sampleRate: sampleRate, samplesPerPixel: samplesPerPixel, channelCount: channelCount)
        pending = Array(repeating: .empty, count: channelCount)
    }

    /// Makes room for the pairs of `frames` frames at once, so a long file's pairs are not copied as they grow.
    public mutating func reserveCapacity(forFrames frames: Int64) {
        let count = Int((frames + Int64(peaks.samplesPerPixel) - 1) / Int64(peaks.samplesPerPixel)) + 1
        for channel in 0 ..< peaks.channelCount { peaks.pairs[channel].reserveCapacity(count) }
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
            if 8 % channels == 0 {
                includeVectorised(samples.baseAddress! + frame * channels, count: take * channels)
            } else {
                includeStrided(samples, from: frame, frames: take)
            }
            frame += take
            pendingFrames += take
            if pendingFrames == perPair { closePair() }
        }
        frameCount += Int64(frames)
    }

    /// Widens the pending pairs by `count` interleaved samples, 16 at a time. With 1, 2, 4 or 8
    /// channels, lane k of a SIMD8 always holds channel k % channels, so lanes reduce to channels at
    /// the end. Two accumulators keep the comparisons independent. A NaN compares false both ways,
    /// so it never widens a pair.
    private mutating func includeVectorised(_ start: UnsafePointer<Float>, count: Int) {
        let channels = peaks.channelCount
        var low0 = SIMD8<Float>(repeating: .infinity), low1 = low0
        var high0 = SIMD8<Float>(repeating: -.infinity), high1 = high0
        let raw = UnsafeRawPointer(start)
        var index = 0
        while index + 16 <= count {
            let a = raw.loadUnaligned(fromByteOffset: index &* 4, as: SIMD8<Float>.self)
            let b = raw.loadUnaligned(fromByteOffset: (index &+ 8) &* 4, as: SIMD8<Float>.self)
            low0.replace(with: a, where: a .< low0)
            high0.replace(with: a, where: a .> high0)
            low1.replace(with: b, where: b .< low1)
            high1.replace(with: b, where: b .> high1)
            index &+= 16
        }
        low0.replace(with: low1, where: low1 .< low0)
        high0.replace(with: high1, where: high1 .> high0)
        for lane in 0 ..< 8 {
            pending[lane % channels].include(PeakPair(min: low0[lane], max: high0[lane]))
        }
        while index < count {
            pending[index % channels].include(start[index])
            index += 1
        }
    }

    /// The general case (3, 5, 6 or 7 channels): one channel at a time.
    private mutating func includeStrided(_ samples: UnsafeBufferPointer<Float>, from frame: Int, frames: Int) {
        let channels = peaks.channelCount
        for channel in 0 ..< channels {
            var low = pending[channel].min
            var high = pending[channel].max
            var index = frame * channels + channel
            for _ in 0 ..< frames {
                let sample = samples[index]
                low = sample < low ? sample : low
                high = sample > high ? sample : high
                index &+= channels
            }
            pending[channel] = PeakPair(min: low, max: high)
        }
    }

    /// Moves the pairs closed so far into `columns` (one per channel) from `index` on, and forgets
    /// them, so that a piece of a long overview writes straight into the whole overview's storage
    /// and holds only a few pairs itself. Returns how many pairs each channel gave, or nil (moving
    /// nothing) if they would not fit.
    public mutating func movePairs(into columns: [UnsafeMutableBufferPointer<PeakPair>], at index: Int) -> Int? {
        let count = peaks.length
        guard columns.count == peaks.channelCount, index >= 0, columns.allSatisfy({ index + count <= $0.count }) else { return nil }
        for channel in 0 ..< peaks.channelCount {
            peaks.pairs[channel].withUnsafeBufferPointer { moved in
                _ = UnsafeMutableBufferPointer(rebasing: columns[channel][index ..< index + count]).initialize(fromContentsOf: moved)
            }
            peaks.pairs[channel].removeAll(keepingCapacity: true)
        }
        return count
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
