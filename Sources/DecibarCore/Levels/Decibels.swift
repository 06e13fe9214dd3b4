import RealModule

/// Conversions between linear amplitude and dBFS.
public enum Decibels {
    /// The smallest amplitude we distinguish from silence: 1e-8, i.e. -160 dBFS.
    public static let floorAmplitude: Float = 1e-8
    /// `floorAmplitude` in dBFS.
    public static let floor: Float = -160

    /// `20·log10(amplitude)`, clamped below at -160 dBFS; never NaN or -infinity.
    @inlinable
    public static func fromAmplitude(_ amplitude: Float) -> Float {
        guard amplitude.isFinite else { return amplitude.isNaN ? floor : 20 * Float.log10(.greatestFiniteMagnitude) }
        return 20 * Float.log10(Swift.max(amplitude, floorAmplitude))
    }

    /// `10·log10(power)` for a mean square, with the same floor.
    @inlinable
    public static func fromPower(_ power: Double) -> Float {
        guard power.isFinite else { return power.isNaN ? floor : fromAmplitude(.infinity) }
        let floorPower = Double(floorAmplitude) * Double(floorAmplitude)
        return Float(10 * Double.log10(Swift.max(power, floorPower)))
    }

    /// Linear amplitude of a dBFS value.
    @inlinable
    public static func toAmplitude(_ decibels: Float) -> Float {
        Float.pow(10, decibels / 20)
    }
}
