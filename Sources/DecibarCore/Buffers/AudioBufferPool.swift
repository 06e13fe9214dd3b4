import Synchronization

/// A fixed set of `AudioBuffer` places shared by one producer (a sound server's callback) and one
/// reader, so that handing buffers over never allocates: the producer claims a free place, copies
/// a buffer in, and the reader frees the place once it has copied the buffer out.
///
/// Places are claimed lowest first, so a reader that keeps up touches only the first few and the
/// rest of the pool never becomes resident memory.
// Unchecked: a place's buffer is written only by the producer after it claimed the place and read
// only by the reader after the batch naming it was handed over; the atomic flag orders the two.
public final class AudioBufferPool: @unchecked Sendable {
    /// Buffers the pool holds: how far a reader may fall behind before buffers are dropped.
    public let capacity: Int
    private let storage: UnsafeMutablePointer<AudioBuffer>
    private let claimed: UnsafeMutablePointer<Atomic<Bool>>
    /// Which places were ever written (the producer's alone): those take only the used samples.
    private let written: UnsafeMutablePointer<Bool>
    private let delivered = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)

    public init(capacity: Int) {
        precondition(capacity > 0 && capacity <= Int(UInt16.max), "a pool holds 1 to 65535 buffers")
        self.capacity = capacity
        // Left uninitialized: AudioBuffer is plain data, written whole before it is ever read,
        // and pages nobody writes cost no memory.
        storage = .allocate(capacity: capacity)
        claimed = .allocate(capacity: capacity)
        for index in 0 ..< capacity { (claimed + index).initialize(to: Atomic(false)) }
        written = .allocate(capacity: capacity)
        written.initialize(repeating: false, count: capacity)
    }

    deinit {
        storage.deallocate()
        claimed.deinitialize(count: capacity)
        claimed.deallocate()
        written.deallocate()
    }

    /// Buffers handed over so far.
    public var deliveredCount: Int { delivered.load(ordering: .relaxed) }

    /// Buffers thrown away because the reader fell behind by the whole pool.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }

    // MARK: Producer

    /// Copies `buffer` into a free place and returns its index; nil when every place is taken.
    func store(_ buffer: AudioBuffer) -> UInt16? {
        for index in 0 ..< capacity where !claimed[index].load(ordering: .relaxed)
            && claimed[index].compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            if written[index] {
                // A stereo buffer uses a quarter of its 8 KB: copy that, not the whole.
                storage[index].copyContents(of: buffer)
            } else {
                (storage + index).initialize(to: buffer)
                written[index] = true
            }
            return UInt16(index)
        }
        return nil
    }

    /// Moves the capture time of the buffer at `index`, stored but not yet handed over.
    func shiftCaptureTime(_ index: UInt16, by seconds: Double) {
        storage[Int(index)].captureTime += seconds
    }

    func noteDelivered(_ count: Int) { delivered.add(count, ordering: .relaxed) }

    func noteDropped(_ count: Int) { dropped.add(count, ordering: .relaxed) }

    // MARK: Either side

    /// A copy of the buffer at `index`, and the place freed for the producer.
    func take(_ index: UInt16) -> AudioBuffer {
        let buffer = storage[Int(index)]
        release(index)
        return buffer
    }

    /// Calls `body` with the buffer at `index` in place, then frees the place.
    func visit(_ index: UInt16, _ body: (AudioBuffer) -> Void) {
        body(storage[Int(index)])
        release(index)
    }

    /// Frees the place at `index` without reading it (a batch nobody will read).
    func release(_ index: UInt16) {
        claimed[Int(index)].store(false, ordering: .releasing)
    }
}
