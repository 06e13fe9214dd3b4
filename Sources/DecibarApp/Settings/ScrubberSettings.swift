import DecibarCore

/// How the waveform scrubber looks: shared by `play` and `render`.
public struct ScrubberSettings: Sendable {
    private typealias Key = ConfigSchema.Player

    /// Waveform or spectrogram, and the spectrogram's colors and floor (the display's).
    public var kind = Key.scrubber.defaultValue
    public var colorMap = ConfigSchema.Display.colorMap.defaultValue
    public var spectrogramFloor = Float(ConfigSchema.Display.spectrogramFloor.defaultValue)
    public var barWidth = Key.scrubberBarWidth.defaultValue
    public var barSpacing = Key.scrubberBarSpacing.defaultValue
    public var filter = Key.scrubberFilter.defaultValue
    /// Start in dB mode (d switches at run time).
    public var decibels = Key.decibels.defaultValue
    public var noiseFloor = Float(Key.noiseFloor.defaultValue)
    /// The played part as a filled region instead of a playhead line.
    public var fillIndicator = Key.fillIndicator.defaultValue
    /// How a zoomed scrubber keeps the playhead in sight.
    public var follow = Key.follow.defaultValue
    /// Hear what the scrubber is dragged over.
    public var scrubAudio = Key.scrubAudio.defaultValue
    /// Where a video's picture goes.
    public var videoLayout = Key.videoLayout.defaultValue

    public init() {}
}
