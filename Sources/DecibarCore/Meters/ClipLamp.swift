/// A clip indicator: lights when a sample reaches full scale (0 dBFS, give or take the 0.01 dB
/// that float rounding takes off a full-scale sample) and stays lit for `latchTime` seconds after
/// the last such sample.
public struct ClipLamp: Sendable, Equatable {
    public var latchTime: Double
    private var litFor: Double = 0

    public static let defaultLatchTime = 3.0
    /// A sample peak at or above this is a clip.
    public static let thresholdDB: Float = -0.01

    public init(latchTime: Double = defaultLatchTime) {
        self.latchTime = latchTime
    }

    public var isLit: Bool { litFor > 0 }

    /// `peakDB` is the highest sample peak seen during the last `dt` seconds.
    public mutating func advance(peakDB: Float, dt: Double) {
        if peakDB >= Self.thresholdDB {
            litFor = latchTime
        } else {
            litFor = Swift.max(0, litFor - Swift.max(0, dt))
        }
    }
}
