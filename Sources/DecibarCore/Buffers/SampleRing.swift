import Synchronization

/// A ring of interleaved float frames between one producer thread and one consumer thread, with
/// no lock on either side: the consumer (a sound server's write callback) only copies out what
/// the producer (a decoding thread) has copied in.
///
/// The producer owns `written` and the consumer `read`; each publishes its count with release
/// ordering and loads the other's with acquire ordering, so a frame is never read before it is
/// written nor overwritten before it is read. Counts only grow (an `Int` lasts millions of years
/// of audio), so "empty" and "full" need no extra flag.
// Unchecked: the storage pointer is shared by design; the atomics above order every access to it.
public final class SampleRing: @unchecked Sendable {
    public let channelCount: Int
    /// Frames the ring holds.
    public let capacity: Int
    private let storage: UnsafeMutablePointer<Float>
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)

    public init(capacity: Int, channelCount: Int) {
        precondition(capacity > 0 && channelCount > 0, "a ring needs room")
        self.capacity = capacity
        self.channelCount = channelCount
        storage = .allocate(capacity: capacity * channelCount)
        storage.initialize(repeating: 0, count: capacity * channelCount)
    }

    deinit { storage.deallocate() }

    // MARK: Producer

    /// Frames the producer may write now.
    public var freeFrames: Int { capacity - (written.load(ordering: .relaxed) - read.load(ordering: .acquiring)) }

    /// The producer's count: frames written so far (where the next written frame goes).
    public var writePosition: Int { written.load(ordering: .relaxed) }

    /// Copies in as many whole frames of `samples` as fit; returns how many frames.
    public func write(_ samples: UnsafeBufferPointer<Float>) -> Int {
        let position = written.load(ordering: .relaxed)
        let frames = Swift.min(samples.count / channelCount, capacity - (position - read.load(ordering: .acquiring)))
        guard frames > 0, let source = samples.baseAddress else { return 0 }
        copy(frames: frames, at: position) { slot, offset, count in
            slot.update(from: source + offset * channelCount, count: count * channelCount)
        }
        written.store(position + frames, ordering: .releasing)
        return frames
    }

    // MARK: Consumer

    /// Frames the consumer may read now.
    public var availableFrames: Int { written.load(ordering: .acquiring) - read.load(ordering: .relaxed) }

    /// The consumer's count: frames read (or skipped) so far.
    public var readPosition: Int { read.load(ordering: .relaxed) }

    /// Copies out up to `frames` frames into `destination`; returns how many.
    public func read(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let position = read.load(ordering: .relaxed)
        let count = Swift.min(frames, written.load(ordering: .acquiring) - position)
        guard count > 0 else { return 0 }
        copy(frames: count, at: position) { slot, offset, count in
            (destination + offset * channelCount).update(from: slot, count: count * channelCount)
        }
        read.store(position + count, ordering: .releasing)
        return count
    }

    /// Drops everything before the producer's position `position` (stale audio after a seek).
    public func skip(to position: Int) {
        let current = read.load(ordering: .relaxed)
        let target = Swift.min(position, written.load(ordering: .acquiring))
        if target > current { read.store(target, ordering: .releasing) }
    }

    /// Walks the ring slots of `frames` frames from count `position`, in at most two runs.
    private func copy(frames: Int, at position: Int, _ body: (UnsafeMutablePointer<Float>, Int, Int) -> Void) {
        let start = position % capacity
        let first = Swift.min(frames, capacity - start)
        body(storage + start * channelCount, 0, first)
        if frames > first { body(storage, first, frames - first) }
    }
}
