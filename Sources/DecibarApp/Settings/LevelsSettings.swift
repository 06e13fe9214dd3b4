import DecibarCore

/// What `decibar levels` prints, whatever its source.
public struct LevelsSettings: Sendable {
    public var mode: LevelsMode = .levels
    /// Bands per channel in spectrum mode.
    public var bands = 32
    /// Spectrum lines: the analysis as it is, without the window's smoothing.
    public var raw = false
    /// Spectrum lines: the level of an empty bar, below which smoothed levels do not go.
    public var floorDB: Float = -70
    /// Loudness lines: gate every block exactly (a file) rather than in 0.1 LU bins (live, where
    /// adding audio must not allocate).
    public var exactLoudness = false
    /// Status-bar lines instead of JSON lines: `bands` bars from the spectrum, and the levels.
    public var feed: StatusBarFeed.Format?
    /// The top of an ascii feed's values (cava's ascii_max_range).
    public var asciiMax = 1000

    public init() {}
}
