/// Samples for an integer output: scaled to the format's range and rounded half to even (seed
/// 001's `towardNearestInteger`), then clamped.
public enum SampleRounding {
    /// `value` (full scale ±1) as a signed integer sample of `bits` bits (16 or 32).
    @inlinable
    public static func integer(_ value: Double, bits: Int) -> Int64 {
        let scale = Double(Int64(1) << (bits - 1))
        let rounded = (value * scale).rounded(.toNearestOrEven)
        return Int64(max(-scale, min(scale - 1, rounded.isNaN ? 0 : rounded)))
    }
}
