/// Which file frame a frame sent to the sound server plays, when the rate may change on the way.
///
/// After each write the player notes where the output stands, which file frame that is, and the
/// rate the write went at. The frame heard now lies a latency behind the output: the latest note
/// at or after it, stepped back at that note's rate, gives its file frame. Keeps the last 64 notes
/// (more than a second of writes) inline, so noting never allocates.
public struct PlayheadMap: Sendable {
    public struct Mark: Sendable, Equatable {
        /// Output frames written, counted since the player started.
        public var outputFrame: Int64
        /// The file frame reached at that point.
        public var fileFrame: Double
        /// File frames per output frame over the write that ended here.
        public var rate: Double
    }

    public static let capacity = 64
    private var marks = InlineArray<64, Mark>(repeating: Mark(outputFrame: 0, fileFrame: 0, rate: 1))
    private var newest = 0
    private var count = 0
    /// Where the output stood at the last restart: nothing before it belongs to the current file position.
    private var start = Mark(outputFrame: 0, fileFrame: 0, rate: 1)

    public init() {}

    /// A seek or a new track: output from `outputFrame` on plays file frame `fileFrame` on.
    public mutating func restart(outputFrame: Int64, fileFrame: Int64) {
        start = Mark(outputFrame: outputFrame, fileFrame: Double(fileFrame), rate: 1)
        count = 0
    }

    /// Notes a write that ended at `outputFrame` (output) and `fileFrame` (file), played at `rate`.
    public mutating func note(outputFrame: Int64, fileFrame: Double, rate: Double) {
        newest = (newest + 1) % Self.capacity
        marks[newest] = Mark(outputFrame: outputFrame, fileFrame: fileFrame, rate: rate)
        count = min(count + 1, Self.capacity)
    }

    /// The file frame at the newest note (where the next write starts in the file).
    public var latestFileFrame: Double { count > 0 ? marks[newest].fileFrame : start.fileFrame }

    /// The file frame played at output frame `outputFrame` (the one being heard now).
    public func fileFrame(atOutput outputFrame: Int64) -> Double {
        guard count > 0, outputFrame > start.outputFrame else { return start.fileFrame }
        // The oldest note at or after `outputFrame`: the write that frame belongs to.
        var position = count - 1
        while position > 0 && mark(at: position - 1).outputFrame >= outputFrame { position -= 1 }
        let mark = mark(at: position)
        guard mark.outputFrame > outputFrame else { return mark.fileFrame }
        let previous = position > 0 ? self.mark(at: position - 1) : start
        return max(previous.fileFrame, mark.fileFrame - Double(mark.outputFrame - outputFrame) * mark.rate)
    }

    /// The note at `position`, 0 being the oldest kept.
    private func mark(at position: Int) -> Mark {
        marks[(newest - (count - 1 - position) + Self.capacity) % Self.capacity]
    }
}
