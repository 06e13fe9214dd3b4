/// Reduces a stream of values by a whole decimation factor, averaging each group (the anti-alias
/// filter of the original plot design), whether the values arrive all at once or block by block.
///
/// Values that do not fill a group yet are carried over to the next block, so feeding blocks
/// gives exactly what feeding the whole array gives, with memory bounded by one group.
/// A final partial group is dropped, like the remainder of a whole-array decimation.
public struct AveragingDecimator: Sendable {
    public let factor: Int
    private var sum = 0.0
    private var count = 0

    public init(factor: Int) {
        precondition(factor >= 1, "the decimation factor must be at least 1")
        self.factor = factor
    }

    /// The factor that fits `totalCount` values into `desiredCount`, ignoring the remainder.
    public static func factor(totalCount: Int, desiredCount: Int) -> Int {
        Swift.max(1, totalCount / Swift.max(1, desiredCount))
    }

    /// Adds values; `emit` gets the average of every completed group.
    public mutating func append(contentsOf values: some Sequence<Double>, emit: (Double) -> Void) {
        for value in values {
            sum += value
            count += 1
            if count == factor {
                emit(sum / Double(factor))
                sum = 0
                count = 0
            }
        }
    }

    /// Decimates a whole array at once.
    public static func decimate(_ values: [Double], toCount desiredCount: Int) -> [Double] {
        var decimator = AveragingDecimator(factor: factor(totalCount: values.count, desiredCount: desiredCount))
        var result: [Double] = []
        decimator.append(contentsOf: values) { result.append($0) }
        return Array(result.prefix(desiredCount))
    }
}
