/// Turns deliveries of any size into exactly 256-frame `AudioBuffer`s, losing no sample.
///
/// Sound servers hand over whatever they have (PulseAudio: 240 or 255 frames, files: codec frames);
/// everything downstream wants fixed 256-frame blocks. The pending buffer lives inline, so feeding
/// the rechunker never allocates.
public struct Rechunker: Sendable {
    public let channelCount: Int
    private var pending: AudioBuffer
    /// Frames received so far, which is also the start frame of the next buffer to begin.
    public private(set) var framesReceived: Int64 = 0

    public init(channelCount: Int, sampleRate: Int, startFrame: Int64 = 0) {
        self.channelCount = channelCount
        self.pending = AudioBuffer(channelCount: channelCount, sampleRate: sampleRate, startFrame: startFrame)
        self.framesReceived = startFrame
    }

    /// Frames waiting for the next full buffer.
    public var pendingFrameCount: Int { pending.frameCount }
    /// The rate its buffers are stamped with.
    public var pendingSampleRate: Int { pending.sampleRate }

    /// Feeds interleaved samples (a whole number of frames); `emit` gets every completed buffer in order.
    /// `deliveredAt` is when the last of these frames arrived (monotonic seconds, 0 if unknown);
    /// each buffer's `captureTime` is worked back from it by the frames that follow the buffer.
    public mutating func append(_ samples: UnsafeBufferPointer<Float>, deliveredAt: Double = 0,
                                emit: (AudioBuffer) -> Void) {
        append(frames: samples.count / channelCount, from: samples, deliveredAt: deliveredAt, emit: emit)
    }

    /// Feeds `frames` frames of silence, for holes in a capture stream: time keeps its place.
    public mutating func appendSilence(frames: Int, deliveredAt: Double = 0, emit: (AudioBuffer) -> Void) {
        append(frames: frames, from: UnsafeBufferPointer(start: nil, count: 0), deliveredAt: deliveredAt, emit: emit)
    }

    /// Emits the partly filled buffer, if any (end of a file).
    public mutating func flush(emit: (AudioBuffer) -> Void) {
        guard pending.frameCount > 0 else { return }
        emit(pending)
        pending.reset(startFrame: framesReceived)
    }

    /// Drops pending frames and restarts counting at `startFrame` (after a seek or a device change).
    public mutating func reset(startFrame: Int64 = 0) {
        framesReceived = startFrame
        pending.reset(startFrame: startFrame)
    }

    private mutating func append(frames: Int, from samples: UnsafeBufferPointer<Float>, deliveredAt: Double,
                                 emit: (AudioBuffer) -> Void) {
        let deliveryEnd = framesReceived + Int64(frames)
        var remaining = frames
        var offset = 0
        while remaining > 0 {
            let slice: UnsafeBufferPointer<Float>
            if let base = samples.baseAddress {
                slice = UnsafeBufferPointer(start: base + offset * channelCount, count: remaining * channelCount)
            } else {
                slice = samples
            }
            let taken = pending.append(from: slice, frames: remaining)
            remaining -= taken
            offset += taken
            framesReceived += Int64(taken)
            if pending.isFull {
                if deliveredAt > 0 {
                    pending.captureTime = deliveredAt - Double(deliveryEnd - framesReceived) / Double(pending.sampleRate)
                }
                emit(pending)
                pending.reset(startFrame: framesReceived)
            }
        }
    }
}
