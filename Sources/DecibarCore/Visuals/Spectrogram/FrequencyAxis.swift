import RealModule

/// A spectrogram's log frequency axis, 20 Hz to 20 kHz: where a frequency sits (0 at the low end,
/// 1 at the high) and which frequencies are labeled.
public struct FrequencyAxis: Sendable, Equatable {
    public var lowest: Double
    public var highest: Double

    public init(lowest: Double = 20, highest: Double = 20_000) {
        self.lowest = lowest
        self.highest = highest
    }

    public func fraction(ofHertz hertz: Double) -> Double {
        Double.log(hertz / lowest) / Double.log(highest / lowest)
    }

    public func hertz(atFraction fraction: Double) -> Double {
        lowest * Double.exp(fraction * Double.log(highest / lowest))
    }

    /// The labeled frequencies, low to high, with their texts.
    public static let ticks: [(hertz: Double, text: String)] = [
        (20, "20"), (50, "50"), (100, "100"), (200, "200"), (500, "500"), (1000, "1k"), (2000, "2k"), (5000, "5k"),
        (10_000, "10k"), (20_000, "20k"),
    ]
}
