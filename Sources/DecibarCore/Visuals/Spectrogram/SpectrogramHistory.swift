/// A whole file's spectrogram in bounded memory, for a picture of it: blocks of powers (one per
/// analysis block at first) kept in time order; when it holds `limit` of them, neighbors merge in
/// pairs (their powers averaged), so a file of any length fits, its resolution halving as it grows.
public struct SpectrogramHistory {
    public let rowCount: Int
    public let limit: Int
    /// Entries of `rowCount` powers each, in time order.
    public private(set) var powers: [Float] = []
    /// Analysis blocks in each entry (the last may hold fewer).
    public private(set) var blocksPerEntry = 1
    private var pending: [Float]
    private var pendingBlocks = 0

    public init(rowCount: Int, limit: Int = 8192) {
        precondition(limit >= 2 && limit.isMultiple(of: 2), "the limit is an even count of entries")
        self.rowCount = rowCount
        self.limit = limit
        pending = [Float](repeating: 0, count: rowCount)
    }

    public var entryCount: Int { powers.count / rowCount + (pendingBlocks > 0 ? 1 : 0) }

    /// Adds one analysis block's powers.
    public mutating func add(_ block: UnsafeBufferPointer<Float>) {
        for row in 0 ..< rowCount { pending[row] += block[row] }
        pendingBlocks += 1
        guard pendingBlocks == blocksPerEntry else { return }
        for row in 0 ..< rowCount { powers.append(pending[row] / Float(blocksPerEntry)) }
        for row in 0 ..< rowCount { pending[row] = 0 }
        pendingBlocks = 0
        if powers.count / rowCount == limit { halve() }
    }

    private mutating func halve() {
        let entries = powers.count / rowCount
        for pair in 0 ..< entries / 2 {
            for row in 0 ..< rowCount {
                powers[pair * rowCount + row] = (powers[2 * pair * rowCount + row] + powers[(2 * pair + 1) * rowCount + row]) / 2
            }
        }
        powers.removeLast(powers.count - entries / 2 * rowCount)
        blocksPerEntry *= 2
    }

    /// `count` columns of dB values spanning the whole, column after column: each the mean power
    /// of the entries under it, or of the nearest entry where there are fewer entries than columns.
    public func columns(count: Int) -> [Float] {
        var entries = powers
        if pendingBlocks > 0 { for row in 0 ..< rowCount { entries.append(pending[row] / Float(pendingBlocks)) } }
        let entryCount = entries.count / rowCount
        var result = [Float](repeating: SpectrogramAnalysis.silence, count: count * rowCount)
        guard entryCount > 0 else { return result }
        for column in 0 ..< count {
            let first = column * entryCount / count
            let last = max(first, (column + 1) * entryCount / count - 1)
            for row in 0 ..< rowCount {
                var sum: Float = 0
                for entry in first ... last { sum += entries[entry * rowCount + row] }
                result[column * rowCount + row] = SpectrogramAnalysis.decibels(sum / Float(last - first + 1))
            }
        }
        return result
    }
}
