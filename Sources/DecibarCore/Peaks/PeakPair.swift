/// The lowest and highest sample of one stretch of one channel.
public struct PeakPair: Sendable, Equatable {
    public var min: Float
    public var max: Float

    public init(min: Float, max: Float) {
        self.min = min
        self.max = max
    }

    /// The pair that any real sample widens.
    public static let empty = PeakPair(min: .infinity, max: -.infinity)

    public var isEmpty: Bool { min > max }

    /// The largest magnitude in the stretch.
    public var magnitude: Float { isEmpty ? 0 : Swift.max(Swift.abs(min), Swift.abs(max)) }

    @inlinable
    public mutating func include(_ sample: Float) {
        if sample < min { min = sample }
        if sample > max { max = sample }
    }

    public mutating func include(_ other: PeakPair) {
        min = Swift.min(min, other.min)
        max = Swift.max(max, other.max)
    }
}
