/// How a scrubber column sums up the pairs under it.
public enum ScrubberFilter: String, Sendable, CaseIterable {
    /// The loudest pair under the column: a peak is never lost.
    case max
    /// The average of the pairs' magnitudes (the original plot's anti-alias filter): smoother, quieter.
    case average
}

/// Fits peaks to a number of on-screen columns.
public enum PeaksRescaler {
    /// One value per column for the first `totalLength` pairs, the largest magnitude of any channel
    /// (or its average with `.average`). Columns beyond what has been analyzed yet come out nil.
    public static func columns(_ peaks: Peaks, count: Int, totalLength: Int, filter: ScrubberFilter = .max) -> [PeakPair?] {
        var columns: [PeakPair?] = []
        self.columns(peaks, count: count, from: 0, to: Double(Swift.max(totalLength, 1)), filter: filter, into: &columns)
        return columns
    }

    /// The same for the pairs from `first` to `last` (positions in pairs, fractional: a zoomed
    /// scrubber's stretch), into `columns`, whose storage is reused. A column narrower than a
    /// pair takes the pair under it.
    public static func columns(_ peaks: Peaks, count: Int, from first: Double, to last: Double, filter: ScrubberFilter = .max,
                               into columns: inout [PeakPair?]) {
        columns.removeAll(keepingCapacity: true)
        guard count > 0 else { return }
        let span = Swift.max(last - first, 0)
        let available = peaks.length
        // (column * span) / count, floored: for whole numbers this is exactly integer division.
        func edge(_ column: Int) -> Int { Int((first + Double(column) * span / Double(count)).rounded(.down)) }
        for column in 0 ..< count {
            let start = Swift.max(0, edge(column))
            let end = Swift.max(start + 1, edge(column + 1))
            guard start < available else {
                columns.append(nil)
                continue
            }
            let last = Swift.min(end, available)
            var merged = PeakPair.empty
            var magnitudeSum: Float = 0
            for index in start ..< last {
                for channel in 0 ..< peaks.channelCount {
                    let pair = peaks.pairs[channel][index]
                    merged.include(pair)
                    magnitudeSum += pair.magnitude
                }
            }
            switch filter {
            case .max:
                columns.append(merged)
            case .average:
                let mean = magnitudeSum / Float((last - start) * peaks.channelCount)
                columns.append(PeakPair(min: -mean, max: mean))
            }
        }
    }
}
