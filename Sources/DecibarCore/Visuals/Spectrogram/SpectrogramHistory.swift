/// A whole file's spectrogram in bounded memory, for a picture of it: blocks of powers (one per
/// analysis block at first) kept in time order; when it holds `limit` of them, neighbors merge in
/// pairs (their powers averaged), so a file of any length fits, its resolution halving as it grows.
public struct SpectrogramHistory: Sendable {
    public let rowCount: Int
    public let limit: Int
    /// Entries of `rowCount` powers each, in time order.
    public private(set) var powers: [Float] = []
    /// Analysis blocks in each entry (the last may hold fewer).
    public private(set) var blocksPerEntry = 1
    private var pending: [Float]
    private var pendingBlocks = 0

    public init(rowCount: Int, limit: Int = 4096) {
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
    ///
    /// With `from` and `to` (shares of `totalEntries`, the whole file's count when known), only that
    /// stretch; columns past the entries made so far are silence.
    public func columns(count: Int, from start: Double = 0, to end: Double = 1, totalEntries: Int? = nil) -> [Float] {
        var result = [Float](repeating: SpectrogramAnalysis.silence, count: count * rowCount)
        columns(count: count, from: start, to: end, totalEntries: totalEntries, into: &result)
        return result
    }

    /// The same into `result` (`count * rowCount` values), reusing its storage.
    public func columns(count: Int, from start: Double = 0, to end: Double = 1, totalEntries: Int? = nil, into result: inout [Float]) {
        if result.count != count * rowCount { result = [Float](repeating: SpectrogramAnalysis.silence, count: count * rowCount) }
        let made = entryCount
        guard made > 0, count > 0 else {
            for index in result.indices { result[index] = SpectrogramAnalysis.silence }
            return
        }
        let whole = Double(max(made, totalEntries ?? made))
        let firstEntry = start * whole, span = max(1e-9, (end - start) * whole)
        func entry(_ index: Int, _ row: Int) -> Float {
            index < powers.count / rowCount ? powers[index * rowCount + row] : pending[row] / Float(max(1, pendingBlocks))
        }
        for column in 0 ..< count {
            let first = Int(firstEntry + span * Double(column) / Double(count))
            let last = max(first, Int(firstEntry + span * Double(column + 1) / Double(count)) - 1)
            guard first < made else {
                for row in 0 ..< rowCount { result[column * rowCount + row] = SpectrogramAnalysis.silence }
                continue
            }
            let through = min(last, made - 1)
            for row in 0 ..< rowCount {
                var sum: Float = 0
                for index in first ... through { sum += entry(index, row) }
                result[column * rowCount + row] = SpectrogramAnalysis.decibels(sum / Float(through - first + 1))
            }
        }
    }
}
