import Synchronization

/// A `SampleRing` whose reader follows the writer across seeks: the audio between a thread that
/// makes it ahead (a decoder, the player's stretch stage) and one that only copies it out (the
/// sound server's write callback, or the next stage).
///
/// A seek is a new *generation*: anyone may ask for one (`requestGeneration`) and return at once.
/// The producer begins it when it gets there (`begin`), which marks where in the ring its audio
/// starts; the reader skips everything before that, so the audio read after a seek starts exactly
/// at the new audio. Until the producer says the generation is primed (enough is there to start
/// on, or it ended at once) the reader is told to wait, and the producer learns that it waits
/// (`takeWaitingReader`) so that it can call the reader back. No lock on either side: atomics only.
// Unchecked: the sample storage is shared by design (SampleRing orders it); every other field is
// an atomic, and the producer's and reader's own counts are each touched by one side only.
public final class PlaybackRing: @unchecked Sendable {
    /// What a read gives.
    public enum Read: Sendable, Equatable {
        /// This many frames were copied (fewer than asked: the producer fell behind).
        case audio(frames: Int)
        /// The last frames of this generation (fewer than asked is no shortfall: nothing follows).
        case last(frames: Int)
        /// This generation's audio is over and all of it was read.
        case ended
        /// This generation's first audio is not there yet (a seek, or the start).
        case waiting
    }

    public let samples: SampleRing
    private let requested = Atomic<Int>(0)
    private let handled = Atomic<Int>(0)
    /// Where the handled generation's audio starts in the ring.
    private let start = Atomic<Int>(0)
    /// The generation whose audio may be read (enough is there, or it ended; -1: none yet).
    private let primed = Atomic<Int>(-1)
    /// The generation whose audio has all been written (-1: none yet).
    private let finished = Atomic<Int>(-1)
    /// The reader's side: which generation it reads.
    private let readerGeneration = Atomic<Int>(0)
    private let readerWaits = Atomic<Bool>(false)

    public init(capacity: Int, channelCount: Int) {
        samples = SampleRing(capacity: capacity, channelCount: channelCount)
    }

    public var channelCount: Int { samples.channelCount }
    public var capacity: Int { samples.capacity }

    // MARK: Asking

    /// Asks for a new generation (a seek); returns its number. The producer begins it later.
    @discardableResult
    public func requestGeneration() -> Int { requested.add(1, ordering: .releasing).newValue }

    /// The latest generation asked for.
    public var requestedGeneration: Int { requested.load(ordering: .acquiring) }

    /// Everything of the latest generation asked for has been written.
    public var isWrittenToEnd: Bool { finished.load(ordering: .acquiring) == requested.load(ordering: .acquiring) }

    /// Frames of the latest generation written and not yet read; 0 until it is primed.
    public var bufferedFrames: Int {
        let wanted = requested.load(ordering: .acquiring)
        guard handled.load(ordering: .acquiring) == wanted, primed.load(ordering: .acquiring) == wanted else { return 0 }
        return max(0, samples.writePosition - max(samples.readPosition, start.load(ordering: .acquiring)))
    }

    // MARK: Producer

    /// The generation the producer is writing (the last it began).
    public var generation: Int { handled.load(ordering: .relaxed) }

    /// A generation asked for that the producer has not begun, if any.
    public var generationToBegin: Int? {
        let wanted = requested.load(ordering: .acquiring)
        return wanted != handled.load(ordering: .relaxed) ? wanted : nil
    }

    /// Begins `generation`: its audio starts at the producer's position now.
    public func begin(_ generation: Int) {
        start.store(samples.writePosition, ordering: .releasing)
        handled.store(generation, ordering: .releasing)
    }

    /// Copies in as many whole frames as fit; returns how many.
    public func write(_ interleaved: UnsafeBufferPointer<Float>) -> Int { samples.write(interleaved) }

    /// Frames written and not yet read (the producer's lead), counting only this generation's.
    public var framesAhead: Int {
        max(0, samples.writePosition - max(samples.readPosition, start.load(ordering: .relaxed)))
    }

    /// The reader may start on the current generation.
    public func markPrimed() {
        let current = handled.load(ordering: .relaxed)
        if primed.load(ordering: .relaxed) != current { primed.store(current, ordering: .releasing) }
    }

    /// Whether the current generation has been marked primed.
    public var isPrimed: Bool { primed.load(ordering: .relaxed) == handled.load(ordering: .relaxed) }

    /// All of the current generation is written; the reader ends once it has read it.
    public func finish() {
        let current = handled.load(ordering: .relaxed)
        finished.store(current, ordering: .releasing)
        // A reader still waiting for this generation's first audio must see the end instead.
        primed.store(current, ordering: .releasing)
    }

    /// Whether the current generation was finished.
    public var isFinished: Bool { finished.load(ordering: .relaxed) == handled.load(ordering: .relaxed) }

    /// True once per time the reader was told to wait, or got less than it asked for: the producer
    /// should call it back when there is more.
    public func takeWaitingReader() -> Bool { readerWaits.exchange(false, ordering: .acquiringAndReleasing) }

    // MARK: Reader

    /// Copies up to `frames` frames of the latest generation into `destination`. Real-time safe.
    public func read(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Read {
        let wanted = requested.load(ordering: .acquiring)
        let ready = handled.load(ordering: .acquiring)
        guard ready == wanted else { return waiting() }
        if readerGeneration.load(ordering: .relaxed) != ready {
            // The first read of a new generation: everything written before its audio is stale.
            samples.skip(to: start.load(ordering: .acquiring))
            readerGeneration.store(ready, ordering: .relaxed)
        }
        guard primed.load(ordering: .acquiring) == ready else { return waiting() }
        let copied = samples.read(into: destination, frames: frames)
        // Checked after the copy: a producer that finished before it wrote everything that was read.
        if finished.load(ordering: .acquiring) == ready && samples.availableFrames == 0 {
            return copied == 0 ? .ended : .last(frames: copied)
        }
        // Short: the reader wants the rest as soon as it is there.
        if copied < frames { readerWaits.store(true, ordering: .releasing) }
        return .audio(frames: copied)
    }

    /// The reader's position in the ring (frames read or skipped so far).
    public var readPosition: Int { samples.readPosition }

    private func waiting() -> Read {
        readerWaits.store(true, ordering: .releasing)
        return .waiting
    }
}
