/// Makes each frame's `VisualFrame`: whether audio is still being heard and where the beat is.
/// It belongs to whoever draws (a window, a render, a lane of outputs), not to one picture, so
/// switching pictures keeps both.
public struct VisualClock {
    /// With no audio for this long (server gone, paused, silence from a stopped player), bars fall.
    public static let silenceAfter = 0.1

    private var lastAudio = -Double.infinity

    public init() {}

    public mutating func frame(reading: LevelReading, feed: AudioFeed, dt: Double, now: Double, canvasWidth: Int) -> VisualFrame {
        if reading.frameCount > 0 { lastAudio = now }
        let beat = feed.beatPulse
        return VisualFrame(reading: reading, feed: feed, dt: dt, now: now, canvasWidth: canvasWidth,
                            hasAudio: now - lastAudio <= Self.silenceAfter,
                            beat: beat, beatLevel: beat.level(at: now), beatPhase: beat.phase(at: now))
    }
}
