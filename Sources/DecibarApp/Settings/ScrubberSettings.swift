import DecibarCore

/// How the waveform scrubber looks: shared by `play` and `render`.
public struct ScrubberSettings: Sendable {
    private static let rows = ConfigSchema.player

    /// Waveform or spectrogram, and the spectrogram's colors and floor (the display's).
    public var kind = Self.rows.scrubber.defaultValue
    public var colorMap = SpectrogramSettings.rows.colorMap.defaultValue
    public var spectrogramFloor = Float(SpectrogramSettings.rows.floor.defaultValue)
    public var barWidth = Self.rows.scrubberBarWidth.defaultValue
    public var barSpacing = Self.rows.scrubberBarSpacing.defaultValue
    public var filter = Self.rows.scrubberFilter.defaultValue
    /// Start in dB mode (d switches at run time).
    public var decibels = Self.rows.decibels.defaultValue
    public var noiseFloor = Float(Self.rows.noiseFloor.defaultValue)
    /// The played part as a filled region instead of a playhead line.
    public var fillIndicator = Self.rows.fillIndicator.defaultValue
    /// How a zoomed scrubber keeps the playhead in sight.
    public var follow = Self.rows.follow.defaultValue
    /// Hear what the scrubber is dragged over.
    public var scrubAudio = Self.rows.scrubAudio.defaultValue
    /// Where a video's picture goes.
    public var videoLayout = Self.rows.videoLayout.defaultValue

    public init() {}
}
