import RealModule

/// Time constants of the display smoother, separately for rising (attack) and falling (release) bars.
public struct SmoothingTimes: Sendable, Equatable {
    /// Seconds for a rising bar to cover 63 % of the way to its target.
    public var attack: Double
    /// Seconds for a falling bar to cover 63 % of the way to its target.
    public var release: Double

    public init(attack: Double, release: Double) {
        precondition(attack >= 0 && release >= 0, "time constants cannot be negative")
        self.attack = attack
        self.release = release
    }

    /// The time constant that makes `current·0.9 + target·0.1` per frame at 60 Hz (the original
    /// design's filter) come out the same at every frame rate: `-(1/60) / ln(0.9)` ≈ 158.2 ms.
    public static let seedTimeConstant: Double = -(1.0 / 60.0) / Double.log(0.9)

    public static let `default` = SmoothingTimes(attack: seedTimeConstant, release: seedTimeConstant)

    /// The share of the remaining distance a one-pole low-pass covers in `dt` seconds.
    @inlinable
    public static func alpha(timeConstant: Double, dt: Double) -> Float {
        guard timeConstant > 0 else { return 1 }
        guard dt > 0 else { return 0 }
        return Float(1 - Double.exp(-dt / timeConstant))
    }
}
