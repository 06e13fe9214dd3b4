import DecibarCore

/// How the waveform scrubber looks: shared by `play` and `render`.
public struct ScrubberSettings: Sendable {
    public var barWidth = 3
    public var barSpacing = 2
    public var filter: ScrubberFilter = .max
    /// Start in dB mode (d switches at run time).
    public var decibels = false
    public var noiseFloor: Float = ScrubberScale.defaultNoiseFloor
    /// The played part as a filled region instead of a playhead line.
    public var fillIndicator = false
    /// Where a video's picture goes.
    public var videoLayout: VideoLayout = .under

    public init() {}
}
