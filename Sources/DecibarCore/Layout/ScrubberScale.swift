import RealModule

/// How a column's magnitude becomes a bar height (0...1) on the scrubber.
public enum ScrubberScale: Sendable, Equatable {
    /// Proportional to the magnitude, normalized so the track's loudest sample fills the height.
    case linear
    /// In dB relative to the loudest sample, clipped at `floor` dB: `(s - floor)/(smax - floor)`,
    /// where `smax` is 0 dB (the loudest sample).
    case decibels(floor: Float)

    /// Noise floors offered for the dB mode.
    public static let noiseFloors: [Float] = [-50, -70, -90]
    public static let defaultNoiseFloor: Float = -70

    /// Height in 0...1 for `magnitude`, given the track's `largest` magnitude.
    public func height(magnitude: Float, largest: Float) -> Float {
        guard largest > 0, magnitude > 0, magnitude.isFinite else { return 0 }
        let relative = Swift.min(1, magnitude / largest)
        switch self {
        case .linear:
            return relative
        case .decibels(let floor):
            let decibels = Swift.max(floor, 20 * Float.log10(relative))
            return (decibels - floor) / (0 - floor)
        }
    }
}
