import RealModule

/// How fast the player goes and how far its pitch is moved, independently: the rate is file
/// seconds per second (2: twice as fast, at the same pitch) and the pitch is in cents (1200: an
/// octave up, at the same speed). `[` and `]` step the rate by 0.25, `{` and `}` the pitch by 100
/// cents, `\` resets both.
public struct RateAndPitch: Sendable, Equatable {
    public static let rates: ClosedRange<Double> = 0.25 ... 4
    public static let pitches: ClosedRange<Double> = -2400 ... 2400
    public static let rateStep = 0.25
    public static let pitchStep = 100.0
    public static let normal = RateAndPitch()

    public private(set) var rate: Double
    public private(set) var pitch: Double

    /// Out-of-range values are clamped; values that are not numbers count as normal.
    public init(rate: Double = 1, pitch: Double = 0) {
        self.rate = Self.clamp(rate, to: Self.rates, normal: 1)
        self.pitch = Self.clamp(pitch, to: Self.pitches, normal: 0)
    }

    public var isNormal: Bool { rate == 1 && pitch == 0 }

    /// The frequency ratio of the pitch (2 an octave up).
    public var pitchScale: Double { Double.pow(2, pitch / 1200) }

    public func with(rate: Double) -> RateAndPitch { RateAndPitch(rate: rate, pitch: pitch) }
    public func with(pitch: Double) -> RateAndPitch { RateAndPitch(rate: rate, pitch: pitch) }

    /// The rate moved by `steps` steps of 0.25 onto the grid of steps, kept in range.
    public func steppingRate(by steps: Int) -> RateAndPitch {
        with(rate: ((rate + Double(steps) * Self.rateStep) / Self.rateStep).rounded() * Self.rateStep)
    }

    /// The pitch moved by `steps` steps of 100 cents onto the grid of steps, kept in range.
    public func steppingPitch(by steps: Int) -> RateAndPitch {
        with(pitch: ((pitch + Double(steps) * Self.pitchStep) / Self.pitchStep).rounded() * Self.pitchStep)
    }

    /// What the window shows while either differs from normal: "1.25x  +200 cents".
    public var label: String {
        let cents = Int(pitch.rounded())
        return Self.rateText(rate) + "x  " + (cents > 0 ? "+\(cents)" : "\(cents)") + " cents"
    }

    /// A rate with two decimals ("1.25", "0.50", "4.00").
    static func rateText(_ rate: Double) -> String {
        let hundredths = Int((rate * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    }

    private static func clamp(_ value: Double, to range: ClosedRange<Double>, normal: Double) -> Double {
        guard value.isFinite else { return normal }
        return Swift.min(range.upperBound, Swift.max(range.lowerBound, value))
    }
}
