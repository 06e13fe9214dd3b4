import Synchronization

/// Which file frame the frames of a ring play, when they may be stretched: the producer marks
/// where a stretch at one rate begins (its ring position, the file frame there, and the file frames
/// per ring frame from there on) before it publishes that stretch's frames, and marks again only
/// where that line breaks (another rate, a seek, the stretcher's own jump at a pitch change). The
/// reader asks for the file frame at its position after each read. One producer thread, one
/// reader thread, no lock: the marks live in a ring of their own with `SampleRing`'s discipline.
///
/// Positions only grow, so a mark that restarts the count (a seek's first) needs nothing special:
/// the reader passes over every mark at or before its position and keeps the last as its base.
// Unchecked: the marks' storage is shared by design; the two counts (atomics) order every access.
public final class FrameMarks: @unchecked Sendable {
    public struct Mark: Sendable, Equatable {
        /// The ring position (frames written so far) where the stretch begins.
        public var position: Int
        /// The file frame played there.
        public var fileFrame: Double
        /// File frames per ring frame from there on.
        public var rate: Double

        public init(position: Int, fileFrame: Double, rate: Double) {
            self.position = position
            self.fileFrame = fileFrame
            self.rate = rate
        }

        /// The file frame at `position`, on this mark's line.
        public func fileFrame(at position: Int) -> Double { fileFrame + Double(position - self.position) * rate }
    }

    public let capacity: Int
    private let storage: UnsafeMutablePointer<Mark>
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)
    /// The reader's base: the last mark at or before its position.
    private var base: Mark
    /// The producer's: the last mark it added.
    public private(set) var latest: Mark

    public init(capacity: Int, start: Mark = Mark(position: 0, fileFrame: 0, rate: 1)) {
        precondition(capacity > 0, "marks need room")
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: start, count: capacity)
        base = start
        latest = start
    }

    deinit { storage.deallocate() }

    // MARK: Producer

    /// Marks the producer may add now.
    public var freeCount: Int { capacity - (written.load(ordering: .relaxed) - read.load(ordering: .acquiring)) }

    /// Adds a mark; false when there is no room (the reader is that far behind).
    @discardableResult
    public func append(_ mark: Mark) -> Bool {
        let position = written.load(ordering: .relaxed)
        guard position - read.load(ordering: .acquiring) < capacity else { return false }
        storage[position % capacity] = mark
        written.store(position + 1, ordering: .releasing)
        latest = mark
        return true
    }

    /// Marks a stretch starting at `position` at `fileFrame` and `rate`, unless it carries on the
    /// latest mark's line (within a thousandth of a frame); false when a mark was needed and there
    /// was no room.
    @discardableResult
    public func follow(position: Int, fileFrame: Double, rate: Double) -> Bool {
        if abs(latest.fileFrame(at: position) - fileFrame) < 1e-3 && abs(latest.rate - rate) < 1e-9 { return true }
        return append(Mark(position: position, fileFrame: fileFrame, rate: rate))
    }

    // MARK: Reader

    /// The file frame played at ring position `position`, and the rate it goes at there. Passes
    /// over (and frees) every mark at or before `position`. Real-time safe.
    public func fileFrame(at position: Int) -> (fileFrame: Double, rate: Double) {
        var next = read.load(ordering: .relaxed)
        let end = written.load(ordering: .acquiring)
        while next < end, storage[next % capacity].position <= position {
            base = storage[next % capacity]
            next += 1
        }
        read.store(next, ordering: .releasing)
        return (base.fileFrame(at: position), base.rate)
    }
}
