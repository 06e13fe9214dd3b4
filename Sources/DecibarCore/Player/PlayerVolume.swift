import RealModule

/// The player's volume in percent on the sound server's scale (the one pavucontrol and `pactl`
/// show): 100 % leaves the samples as they are, and the gain in amplitude is the cube of the
/// fraction, so each step sounds about as large as the last.
public enum PlayerVolume {
    public static let range: ClosedRange<Double> = 0 ... 150
    public static let defaultPercent = 100.0
    /// How far `9` and `0` move it.
    public static let step = 5.0

    /// The gain, in dB, of `percent` (-infinity at 0 %).
    public static func decibels(_ percent: Double) -> Double {
        guard percent > 0 else { return -.infinity }
        return 60 * Double.log10(percent / 100)
    }

    /// `percent` moved by `steps` steps (negative: down), kept in range.
    public static func stepped(_ percent: Double, by steps: Int) -> Double {
        clamped(((percent + Double(steps) * step) / step).rounded() * step)
    }

    public static func clamped(_ percent: Double) -> Double {
        guard percent.isFinite else { return defaultPercent }
        return Swift.min(range.upperBound, Swift.max(range.lowerBound, percent))
    }
}
