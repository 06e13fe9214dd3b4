/// A block of at most 256 interleaved float frames, the unit that flows from a tap to the processor.
///
/// It stores its samples inline, so making, copying and sending one never touches the heap:
/// the capture path can yield it from a real-time-ish thread without allocating.
public struct AudioBuffer: Sendable {
    /// Frames in a full buffer; taps deliver nothing else (except the last buffer of a file).
    public static let frameCapacity = 256
    /// Channels a buffer can carry; sources with more are down-mixed by the sound server.
    public static let maxChannels = 8
    public static let sampleCapacity = frameCapacity * maxChannels

    /// Channels interleaved in `samples`.
    public internal(set) var channelCount: Int
    /// Frames per second of the stream the buffer belongs to.
    public internal(set) var sampleRate: Int
    /// Valid frames, `0...frameCapacity`.
    public internal(set) var frameCount: Int
    /// Index of the first frame within its stream, counted from the start of the tap or file.
    public internal(set) var startFrame: Int64
    /// When the buffer's last frame reached us, in seconds on the monotonic clock of the machine
    /// (CLOCK_MONOTONIC); 0 when the audio has no such moment (a file).
    public var captureTime: Double = 0
    @usableFromInline internal var storage: InlineArray<2048, Float>

    public init(channelCount: Int, sampleRate: Int, startFrame: Int64 = 0) {
        precondition((1...Self.maxChannels).contains(channelCount), "channel count out of range")
        precondition(sampleRate > 0, "sample rate must be positive")
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.frameCount = 0
        self.startFrame = startFrame
        self.storage = InlineArray(repeating: 0)
    }

    /// Makes a buffer from interleaved samples (at most 256 frames); handy for files and tests.
    public init(interleaved samples: some Collection<Float>, channelCount: Int, sampleRate: Int,
                startFrame: Int64 = 0) {
        self.init(channelCount: channelCount, sampleRate: sampleRate, startFrame: startFrame)
        precondition(samples.count % channelCount == 0, "samples must hold whole frames")
        precondition(samples.count / channelCount <= Self.frameCapacity, "too many frames for one buffer")
        var index = 0
        for sample in samples {
            storage[index] = sample
            index += 1
        }
        frameCount = samples.count / channelCount
    }

    public var isFull: Bool { frameCount == Self.frameCapacity }

    /// True when every sample is exactly zero.
    public var isDigitalSilence: Bool {
        withSamples { $0.allSatisfy { $0 == 0 } }
    }

    /// Seconds of audio in the buffer.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }

    /// The sample of `channel` in `frame`.
    @inlinable
    public subscript(frame: Int, channel: Int) -> Float {
        storage[frame &* channelCount &+ channel]
    }

    /// Calls `body` with the valid interleaved samples, `frameCount * channelCount` of them.
    @inlinable
    public func withSamples<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try storage.span.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[0 ..< frameCount &* channelCount]))
        }
    }

    /// Appends up to `frames` frames from `source`, returning how many were taken.
    internal mutating func append(from source: UnsafeBufferPointer<Float>, frames: Int) -> Int {
        let taken = Swift.min(frames, Self.frameCapacity &- frameCount)
        guard taken > 0 else { return 0 }
        let offset = frameCount &* channelCount
        let count = taken &* channelCount
        var span = storage.mutableSpan
        span.withUnsafeMutableBufferPointer { destination in
            if let base = source.baseAddress {
                (destination.baseAddress! + offset).update(from: base, count: count)
            } else {
                (destination.baseAddress! + offset).update(repeating: 0, count: count)
            }
        }
        frameCount &+= taken
        return taken
    }

    /// Becomes a copy of `other`, copying only its valid samples.
    internal mutating func copyContents(of other: AudioBuffer) {
        channelCount = other.channelCount
        sampleRate = other.sampleRate
        frameCount = other.frameCount
        startFrame = other.startFrame
        captureTime = other.captureTime
        let count = other.frameCount &* other.channelCount
        var span = storage.mutableSpan
        span.withUnsafeMutableBufferPointer { destination in
            other.storage.span.withUnsafeBufferPointer { source in
                destination.baseAddress!.update(from: source.baseAddress!, count: count)
            }
        }
    }

    internal mutating func reset(startFrame: Int64) {
        frameCount = 0
        self.startFrame = startFrame
    }
}
