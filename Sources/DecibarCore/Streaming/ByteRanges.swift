/// Which bytes of a file have arrived: a sorted set of disjoint half-open ranges, merged as they
/// touch. A download fills it in any order (a seek beyond what has arrived starts a new request
/// further on), and readers ask how far they can read without waiting.
public struct ByteRanges: Sendable, Equatable {
    public private(set) var ranges: [Range<Int64>] = []

    public init(_ ranges: [Range<Int64>] = []) {
        for range in ranges { insert(range) }
    }

    /// Bytes held in all.
    public var count: Int64 { ranges.reduce(0) { $0 + Int64($1.count) } }

    public mutating func insert(_ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        var merged = range
        var kept: [Range<Int64>] = []
        kept.reserveCapacity(ranges.count + 1)
        for existing in ranges {
            if existing.upperBound < merged.lowerBound || existing.lowerBound > merged.upperBound {
                kept.append(existing)
            } else {
                merged = min(existing.lowerBound, merged.lowerBound) ..< max(existing.upperBound, merged.upperBound)
            }
        }
        let index = kept.firstIndex { $0.lowerBound > merged.lowerBound } ?? kept.endIndex
        kept.insert(merged, at: index)
        ranges = kept
    }

    /// The end of the run of held bytes that starts at or covers `offset`: reading from `offset`
    /// up to there needs no waiting. `offset` itself when that byte is missing.
    public func availableEnd(from offset: Int64) -> Int64 {
        for range in ranges where range.contains(offset) { return range.upperBound }
        return offset
    }

    public func contains(_ offset: Int64) -> Bool { ranges.contains { $0.contains(offset) } }

    /// The first missing range at or after `offset` within a file of `total` bytes (the gap up to
    /// the next held range, or to the end), or nil when everything from `offset` on is held.
    public func firstGap(from offset: Int64, total: Int64) -> Range<Int64>? {
        var start = max(0, offset)
        for range in ranges where range.upperBound > start {
            if range.lowerBound > start { return start ..< min(range.lowerBound, total) }
            start = range.upperBound
        }
        return start < total ? start ..< total : nil
    }

    /// Whether every byte of a file of `total` bytes is held.
    public func isComplete(total: Int64) -> Bool { firstGap(from: 0, total: total) == nil }

    /// The held ranges as fractions of `total` (for the scrubber's download shading).
    public func fractions(of total: Int64) -> [ClosedRange<Double>] {
        guard total > 0 else { return [] }
        return ranges.map { Double($0.lowerBound) / Double(total) ... Double(min($0.upperBound, total)) / Double(total) }
    }
}
