/// The meter's vertical scale: dBFS from -70 (levels first), or a loudness scale from -59 LUFS
/// (EBU's +18 scale reaches down to -59) with ticks around the -23 and -14 LUFS targets.
/// Both run to 0 at the top, so levels and loudness share one axis.
public enum MeterScale: String, CaseIterable, Sendable {
    case dbfs
    case lufs

    public var floorDB: Float {
        switch self {
        case .dbfs: -70
        case .lufs: -59
        }
    }

    /// Ticks from the top down.
    public var ticks: [Float] {
        switch self {
        case .dbfs: [0, -3, -6, -10, -15, -20, -30, -40, -50, -60, -70]
        case .lufs: [0, -5, -9, -14, -18, -23, -27, -32, -41, -50, -59]
        }
    }
}
