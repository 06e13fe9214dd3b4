extension FixedWidthInteger {
    /// `value` rounded toward zero and clamped to the type's range; NaN is 0.
    ///
    /// Converting a `Double` with `Int(_:)` traps when it does not fit, and user input (a duration of
    /// 1e300 s, a rate of 1e-300) reaches such conversions after passing every range check.
    @inlinable
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Self.max) {
            self = Self.max
        } else if value <= Double(Self.min) {
            self = Self.min
        } else {
            self = Self(value.rounded(.towardZero))
        }
    }
}
