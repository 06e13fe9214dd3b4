/// A named place in a track: a chapter of an audiobook or a mix, or a track of a CD image's cue sheet.
public struct Chapter: Sendable, Equatable {
    public var title: String
    /// Seconds from the start of the file.
    public var start: Double

    public init(title: String, start: Double) {
        self.title = title
        self.start = start
    }
}

extension Array where Element == Chapter {
    /// The chapter playing at `time` (the last that started by then), if any.
    public func index(at time: Double) -> Int? {
        lastIndex { $0.start <= time + Self.tolerance }
    }

    /// The chapter after the one playing at `time`; nil in the last.
    public func next(after time: Double) -> Chapter? {
        first { $0.start > time + Self.tolerance }
    }

    /// Back, as a CD player's previous: to the start of the chapter playing when more than `grace`
    /// seconds into it, else to the one before it (the first stays the first).
    public func previous(before time: Double, grace: Double = 3) -> Chapter? {
        guard let current = index(at: time) else { return first }
        if time - self[current].start > grace || current == 0 { return self[current] }
        return self[current - 1]
    }

    /// A seek lands on a chapter's first frame, and the playhead may read a hair before it.
    private static var tolerance: Double { 0.05 }
}
