/// A source's 256-frame buffers, in order, as the reader sees them: one buffer at a time, while
/// the producer hands them over one batch per delivery (`AudioHandOver`).
///
/// Reading a buffer that is already in the current batch returns at once, without suspending.
public struct AudioBufferStream: AsyncSequence, Sendable {
    public typealias Element = AudioBuffer
    public typealias Failure = Never

    private let batches: AsyncStream<AudioBatch>
    /// The places buffers wait in; also the counts of buffers delivered and dropped.
    public let pool: AudioBufferPool

    /// A stream and the producer's end of it. `bufferLimit` buffers may wait for a slow reader;
    /// beyond that, new buffers are dropped (counted) rather than memory or latency growing.
    public static func make(bufferLimit: Int) -> (stream: AudioBufferStream, handOver: AudioHandOver) {
        let pool = AudioBufferPool(capacity: bufferLimit)
        // Unbounded in batches: the pool bounds what waits, and a batch is a few bytes.
        let (batches, continuation) = AsyncStream.makeStream(of: AudioBatch.self, bufferingPolicy: .unbounded)
        return (AudioBufferStream(batches: batches, pool: pool), AudioHandOver(pool: pool, continuation: continuation))
    }

    /// Calls `body` with every buffer, in order, where it waits in the pool (no copy of it is
    /// made); returns when the stream ends or the task is cancelled.
    public func forEach(isolation actor: isolated (any Actor)? = #isolation, _ body: (AudioBuffer) -> Void) async {
        var batches = batches.makeAsyncIterator()
        while let batch = await batches.next(isolation: actor) {
            for index in 0 ..< batch.count { batch.visit(index, body) }
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(batches: batches.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        private var batches: AsyncStream<AudioBatch>.Iterator
        private var current: AudioBatch?
        private var position = 0

        init(batches: AsyncStream<AudioBatch>.Iterator) { self.batches = batches }

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> AudioBuffer? {
            while true {
                if let batch = current, position < batch.count {
                    position += 1
                    return batch.take(position - 1)
                }
                guard let batch = await batches.next(isolation: actor) else { return nil }
                current = batch
                position = 0
            }
        }

        public mutating func next() async -> AudioBuffer? { await next(isolation: nil) }
    }
}

/// The producer's end of an `AudioBufferStream`, kept by the one thread that delivers audio:
/// `add` each buffer of a delivery, then `send` them over together. Never allocates or blocks.
public struct AudioHandOver: Sendable {
    private let pool: AudioBufferPool
    private let continuation: AsyncStream<AudioBatch>.Continuation
    private var pending: AudioBatch

    init(pool: AudioBufferPool, continuation: AsyncStream<AudioBatch>.Continuation) {
        self.pool = pool
        self.continuation = continuation
        pending = AudioBatch(pool: pool)
    }

    /// Copies `buffer` in to go with the next `send`; dropped (counted) when the reader is a
    /// whole pool behind.
    public mutating func add(_ buffer: AudioBuffer) {
        guard let place = pool.store(buffer) else {
            pool.noteDropped(1)
            return
        }
        pending.append(place)
        if pending.isFull { send() }
    }

    /// Buffers added since the last send.
    public var pendingCount: Int { pending.count }

    /// Moves the capture times of the buffers added since the last send: for a producer that
    /// learns only later when they will be heard (a stream that was written before it started).
    public func shiftPendingCaptureTimes(by seconds: Double) {
        pending.shiftCaptureTimes(by: seconds)
    }

    /// Hands over the buffers added since the last send, if any.
    public mutating func send() {
        guard pending.count > 0 else { return }
        let batch = pending
        pending.removeAll()
        switch continuation.yield(batch) {
        case .enqueued:
            pool.noteDelivered(batch.count)
        case .dropped(let old):
            old.release()
            pool.noteDropped(old.count)
            pool.noteDelivered(batch.count)
        case .terminated:
            batch.release()
        @unknown default:
            batch.release()
        }
    }

    /// Sends what is pending and ends the stream: the reader's loop ends after the last buffer.
    public mutating func finish() {
        send()
        continuation.finish()
    }
}
