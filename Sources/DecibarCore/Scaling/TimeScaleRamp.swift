/// Where each output frame of a time-scaled signal reads its input: seed 001's control points.
/// Output frame `n` is input frame `trunc(c)` mixed with the next by `c`'s fractional part, for
/// `c = controlPoint(n)`. The points run from 0 to `inputCount - 1`: a straight ramp when
/// shrinking (or not smoothing), and, when stretching, whole input steps whose fractional parts
/// pass through smoothstep (the seed's `smoothly`), so each input sample is held a little before
/// it moves on to the next. The last point is exactly `inputCount - 1`, so the last sample is kept.
public struct TimeScaleRamp: Sendable, Equatable {
    public let inputCount: Int
    public let outputCount: Int
    /// Smoothstep on the fractional parts (only when stretching, as in the seed).
    public let isSmooth: Bool
    private let step: Double

    public init(inputCount: Int, outputCount: Int, smoothly: Bool = true) {
        self.inputCount = max(0, inputCount)
        self.outputCount = max(0, outputCount)
        isSmooth = smoothly && outputCount > inputCount
        if isSmooth {
            // The seed's `denominator`: output points per input step (one input sample: all points 0).
            step = self.inputCount > 1 ? Double(self.outputCount - 1) / Double(self.inputCount - 1) : .infinity
        } else {
            // vDSP_vgenD's ramp: base + n * (end - base) / (N - 1).
            step = self.outputCount > 1 ? Double(max(0, self.inputCount - 1)) / Double(self.outputCount - 1) : 0
        }
    }

    /// A duration scaled by `factor` (2 makes it twice as long): `Int(count * factor)` frames.
    public init(inputCount: Int, factor: Double, smoothly: Bool = true) {
        self.init(inputCount: inputCount, outputCount: Self.outputCount(inputCount: inputCount, factor: factor), smoothly: smoothly)
    }

    /// The seed's length: the scaled count, truncated.
    public static func outputCount(inputCount: Int, factor: Double) -> Int {
        let scaled = Double(max(0, inputCount)) * factor
        return scaled.isFinite && scaled > 0 ? Int(min(scaled, Double(Int.max / 2))) : 0
    }

    /// Where output frame `n` reads.
    public func controlPoint(_ n: Int) -> Double {
        if outputCount > 1 && n == outputCount - 1 { return Double(inputCount - 1) }
        guard isSmooth else { return Double(n) * step }
        let x = Double(n) / step
        let whole = x.rounded(.down)
        let t = min(max(x - whole, 0), 1)
        return whole + t * t * (3 - 2 * t)
    }
}
