/// How a meter's peak bar falls after the signal drops (it always rises at once).
public enum MeterBallistics: String, Sendable, CaseIterable {
    /// A quick digital meter: falls at 40 dB/s, so it reads the music's peaks but does not flicker.
    case digital
    /// IEC 60268-18: a 20 dB drop takes 1.7 s (11.8 dB/s).
    case iec

    public var fallRate: Float {
        switch self {
        case .digital: 40
        case .iec: 20 / 1.7
        }
    }
}
