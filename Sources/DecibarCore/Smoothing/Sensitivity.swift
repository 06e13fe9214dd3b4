import RealModule

/// How loud a level must be to fill a bar: the gain on normalized levels in bars and spectrum modes.
public enum Sensitivity: Sendable, Equatable {
    /// Follows the music (`AutoSensitivity`); the default.
    case automatic
    /// A fixed gain in dB (0 dB: the plain mapping of the dB range onto the bar).
    case fixed(decibels: Float)

    /// The plain mapping: a level at the ceiling fills the bar, whatever the music.
    public static let off = Sensitivity.fixed(decibels: 0)

    /// The gain a fixed sensitivity applies; nil when automatic.
    public var fixedGain: Float? {
        switch self {
        case .automatic: nil
        case .fixed(let decibels): Float.pow(10, decibels / 20)
        }
    }
}
