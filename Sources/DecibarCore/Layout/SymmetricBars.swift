import RealModule

/// The symmetric bar shape: quiet-looking edges follow the RMS level, the tall middle follows the peak.
///
/// For the half of `count` bars (the middle bar shared when `count` is odd), bar `i` has
/// `n = i/(half-1)`, `amp = level·(1-n) + peak·n` and `value = clamp((amp·(1 + 1.5n))^1.2, 0, 1)`;
/// the half is mirrored so the tallest bars meet in the center. With a half of one bar, `n = 1`.
public enum SymmetricBars {
    /// The normalized peak that fills the tallest bar: `(peak·2.5)^1.2` reaches 1 at 0.4.
    public static let fullScale: Float = 0.4

    /// Bar values in 0...1, left to right. `level` and `peak` are already normalized to 0...1.
    public static func values(level: Float, peak: Float, count: Int) -> [Float] {
        var result = [Float](repeating: 0, count: Swift.max(0, count))
        fill(&result, level: level, peak: peak)
        return result
    }

    /// Writes the shape into `bars`, whatever its count.
    public static func fill(_ bars: inout [Float], level: Float, peak: Float) {
        let count = bars.count
        guard count > 0 else { return }
        let half = (count + 1) / 2
        for index in 0 ..< half {
            let n: Float = half == 1 ? 1 : Float(index) / Float(half - 1)
            let amplitude = level * (1 - n) + peak * n
            let base = Swift.max(0, amplitude * (1 + 1.5 * n))
            let shaped = base > 0 ? Float.pow(base, 1.2) : 0
            let value = Swift.min(1, Swift.max(0, shaped.isNaN ? 0 : shaped))
            bars[index] = value
            bars[count - 1 - index] = value
        }
    }
}
