/// The 256-frame buffers that one delivery from a sound server completed, handed to the reader
/// together: one wake-up of the reader per delivery instead of one per buffer.
///
/// A batch only names places in its pool (no buffer is copied when it is sent), so it is small
/// and never allocates.
public struct AudioBatch: Sendable {
    /// Buffers a batch names at most; a larger delivery goes over in several batches.
    public static let capacity = 32

    let pool: AudioBufferPool
    private var places: InlineArray<32, UInt16>
    /// Buffers in the batch.
    public private(set) var count = 0

    init(pool: AudioBufferPool) {
        self.pool = pool
        places = InlineArray(repeating: 0)
    }

    var isFull: Bool { count == Self.capacity }

    mutating func append(_ place: UInt16) {
        places[count] = place
        count += 1
    }

    /// Buffer `index` (in order), copied out; its place goes back to the pool.
    func take(_ index: Int) -> AudioBuffer { pool.take(places[index]) }

    /// Calls `body` with buffer `index` where it lies, then gives its place back.
    func visit(_ index: Int, _ body: (AudioBuffer) -> Void) { pool.visit(places[index], body) }

    /// Moves every buffer's capture time (the producer's, before the batch is sent).
    func shiftCaptureTimes(by seconds: Double) {
        for index in 0 ..< count { pool.shiftCaptureTime(places[index], by: seconds) }
    }

    /// Gives every place back without reading (a batch dropped or never read).
    func release() {
        for index in 0 ..< count { pool.release(places[index]) }
    }

    mutating func removeAll() { count = 0 }
}
