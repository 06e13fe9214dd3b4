/// What a picture is given each display frame: the audio released since the previous one, the
/// beat heard by now, and the width of the canvas it is drawn on. `VisualClock` makes it.
public struct VisualFrame {
    /// Levels of the audio heard since the previous frame (no frames when none was).
    public var reading: LevelReading
    /// The heard audio itself (windows of samples, loudness, beats).
    public var feed: AudioFeed
    public var dt: Double
    public var now: Double
    public var canvasWidth: Int
    /// Whether audio was heard lately (within `VisualClock.silenceAfter`); without, bars fall.
    public var hasAudio: Bool
    /// The beat heard last, and its shader values now: 1 at the beat, decaying; 0...1 across it.
    public var beat: BeatPulse
    public var beatLevel: Float
    public var beatPhase: Float
}
