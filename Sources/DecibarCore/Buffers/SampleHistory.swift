/// The most recent samples of each channel, kept in one ring per channel so a spectrum can take
/// the latest block at any moment. Appending never allocates.
public struct SampleHistory: Sendable {
    public let capacity: Int
    public let channelCount: Int
    private var rings: [[Float]]
    private var writeIndex = 0
    /// Samples per channel appended so far, up to `capacity`.
    public private(set) var filled = 0

    public init(capacity: Int, channelCount: Int) {
        precondition(capacity >= 1 && channelCount >= 1, "invalid sample history")
        self.capacity = capacity
        self.channelCount = channelCount
        rings = Array(repeating: Array(repeating: 0, count: capacity), count: channelCount)
    }

    public mutating func append(_ buffer: AudioBuffer) {
        buffer.withSamples { append(interleaved: $0, channelCount: buffer.channelCount) }
    }

    /// Appends interleaved frames; extra source channels are ignored, missing ones repeat the last.
    public mutating func append(interleaved samples: UnsafeBufferPointer<Float>, channelCount sourceChannels: Int) {
        guard sourceChannels > 0, let base = samples.baseAddress else { return }
        var frames = samples.count / sourceChannels
        var source = base
        // More than a ring's worth: only the newest part can be kept.
        if frames > capacity {
            source += (frames - capacity) * sourceChannels
            frames = capacity
        }
        let start = writeIndex
        for channel in 0 ..< channelCount {
            let offset = Swift.min(channel, sourceChannels - 1)
            rings[channel].withUnsafeMutableBufferPointer { ring in
                // At most two runs: up to the ring's end, then from its start.
                let first = Swift.min(frames, capacity - start)
                for frame in 0 ..< first { ring[start + frame] = source[frame * sourceChannels + offset] }
                for frame in first ..< frames { ring[frame - first] = source[frame * sourceChannels + offset] }
            }
        }
        writeIndex = (writeIndex + frames) % capacity
        filled = Swift.min(capacity, filled + frames)
    }

    /// Copies the newest `destination.count` samples (at most `capacity`) of `channel`, oldest
    /// first; zeros stand in for samples not received yet (the rings start zeroed).
    public func copyLatest(channel: Int, into destination: UnsafeMutableBufferPointer<Float>) {
        precondition(destination.count <= capacity, "asking for more history than is kept")
        let count = destination.count
        guard count > 0, let target = destination.baseAddress else { return }
        rings[channel].withUnsafeBufferPointer { ring in
            let start = (writeIndex - count + capacity) % capacity
            // At most two contiguous runs.
            let first = Swift.min(count, capacity - start)
            target.update(from: ring.baseAddress! + start, count: first)
            if count > first { (target + first).update(from: ring.baseAddress!, count: count - first) }
        }
    }

    public mutating func reset() {
        for channel in 0 ..< channelCount {
            rings[channel].withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        writeIndex = 0
        filled = 0
    }
}
