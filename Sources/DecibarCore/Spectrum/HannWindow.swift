import RealModule

/// The periodic Hann window, and the scale that turns `|X[k]|²` of a windowed block into power in
/// which a full-scale sine's main lobe sums to 1 (0 dB).
public struct HannWindow: Sendable {
    public let coefficients: [Float]
    /// Multiply `|X[k]|²` by this: `4 / (N · Σw²)`.
    public let powerScale: Float

    public init(length: Int) {
        precondition(length >= 2, "a window needs at least two points")
        coefficients = (0 ..< length).map { index in
            Float(0.5 - 0.5 * Double.cos(2 * Double.pi * Double(index) / Double(length)))
        }
        let energy = coefficients.reduce(0.0) { $0 + Double($1) * Double($1) }
        powerScale = Float(4 / (Double(length) * energy))
    }
}
