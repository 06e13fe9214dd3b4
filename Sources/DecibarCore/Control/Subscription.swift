/// What a subscriber receives as events, and how often.
public struct Subscription: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The lines `decibar levels` prints: RMS and peak per channel.
        case levels
        /// Band levels, as `levels --mode spectrum` prints them.
        case spectrum
        /// EBU R128 loudness, as `levels --mode loudness` prints it.
        case loudness
        /// Beats as they are found, and the tempo at least once a second, as `levels --mode beats`
        /// prints them (the rate is ignored).
        case beats
        /// Correlation, balance and width of the first two channels, as `levels --mode stereo`
        /// prints them.
        case stereo
        /// The daemon's status, whenever it changes (the rate is ignored).
        case status
    }

    public var kind: Kind
    /// Events per second.
    public var rate: Double = 30
    /// Bands per channel (spectrum).
    public var bands = 32

    public static let rates: ClosedRange<Double> = 0.1...240

    public init(kind: Kind, rate: Double = 30, bands: Int = 32) {
        self.kind = kind
        self.rate = rate
        self.bands = bands
    }
}
