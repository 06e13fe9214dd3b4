import Synchronization

/// Carries a real-time producer's batches to its reader's stream through a thread of the
/// caller's (`deliverWaiting`). The producer only stores the batch and calls `wake`: the stream's
/// own hand-over takes a lock that its reader takes too (one that lends no priority), may grow a
/// buffer and resumes the reader's task; a reader preempted while holding that lock held a sound
/// server's real-time thread up with it.
// Unchecked: a slot is written only by the producer before it moves `written` on, and read only
// by the delivering thread after it saw that; the two indices order the hand-over.
public final class BatchRelay: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<AudioBatch?>
    private let capacity: Int
    /// Batches stored and taken so far (a slot is `index % capacity`).
    private let written = Atomic<Int>(0)
    private let taken = Atomic<Int>(0)
    private let ended = Atomic<Bool>(false)
    private let continuation: AsyncStream<AudioBatch>.Continuation
    private let wake: @Sendable () -> Void

    init(capacity: Int, continuation: AsyncStream<AudioBatch>.Continuation, wake: @escaping @Sendable () -> Void) {
        self.capacity = max(1, capacity)
        slots = UnsafeMutablePointer.allocate(capacity: self.capacity)
        slots.initialize(repeating: nil, count: self.capacity)
        self.continuation = continuation
        self.wake = wake
    }

    deinit {
        for index in taken.load(ordering: .acquiring) ..< written.load(ordering: .acquiring) {
            slots[index % capacity]?.release()
        }
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    // MARK: Producer

    /// Stores `batch` for the delivering thread and wakes it; a batch that finds every slot
    /// taken (a delivering thread far behind) is dropped, counted. Never blocks or allocates.
    func push(_ batch: AudioBatch) {
        let index = written.load(ordering: .relaxed)
        if index - taken.load(ordering: .acquiring) < capacity {
            slots[index % capacity] = batch
            written.store(index + 1, ordering: .releasing)
        } else {
            batch.release()
            batch.pool.noteDropped(batch.count)
        }
        wake()
    }

    /// No batch follows: the stream ends once the delivering thread has handed over the rest.
    func finish() {
        ended.store(true, ordering: .releasing)
        wake()
    }

    // MARK: Delivering thread

    /// Hands every stored batch to the stream, in order. False once the producer has finished and
    /// all is handed over (the stream has ended): the delivering thread's loop ends then.
    public func deliverWaiting() -> Bool {
        let isEnded = ended.load(ordering: .acquiring)
        var index = taken.load(ordering: .relaxed)
        let end = written.load(ordering: .acquiring)
        while index < end {
            let slot = index % capacity
            if let batch = slots[slot] {
                slots[slot] = nil
                AudioHandOver.deliver(batch, to: continuation)
            }
            index += 1
            taken.store(index, ordering: .releasing)
        }
        guard isEnded, written.load(ordering: .acquiring) == index else { return true }
        continuation.finish()
        return false
    }
}
