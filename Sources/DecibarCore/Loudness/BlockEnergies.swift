import RealModule

/// The K-weighted energies (mean squares, summed over channels) of the last 30 blocks of 100 ms:
/// momentary loudness is the mean of the last 4, short-term of all 30 (EBU Tech 3341). Blocks
/// before the first count as silence, as a meter's window starts out empty.
public struct BlockEnergies: Sendable {
    public static let capacity = 30
    private var energies = InlineArray<30, Double>(repeating: 0)
    private var next = 0

    public init() {}

    /// The energy of a block whose loudness is `lufs` (BS.1770: L = -0.691 + 10 log10 E).
    public static func energy(lufs: Double) -> Double {
        Double.pow(10, (lufs + 0.691) / 10)
    }

    public mutating func append(_ energy: Double) {
        energies[next] = energy
        next = (next + 1) % Self.capacity
    }

    /// The loudness of the last `count` blocks together (-infinity when silent).
    public func loudness(ofLast count: Int) -> Double {
        var sum = 0.0
        for back in 1 ... count { sum += energies[(next - back + Self.capacity) % Self.capacity] }
        let mean = sum / Double(count)
        return mean > 0 ? -0.691 + 10 * Double.log10(mean) : -.infinity
    }
}
