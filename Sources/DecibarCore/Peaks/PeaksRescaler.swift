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
        guard count > 0 else { return [] }
        let total = Swift.max(totalLength, 1)
        let available = peaks.length
        return (0 ..< count).map { column in
            let start = column * total / count
            let end = Swift.max(start + 1, (column + 1) * total / count)
            guard start < available else { return nil }
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
                return merged
            case .average:
                let mean = magnitudeSum / Float((last - start) * peaks.channelCount)
                return PeakPair(min: -mean, max: mean)
            }
        }
    }
}
