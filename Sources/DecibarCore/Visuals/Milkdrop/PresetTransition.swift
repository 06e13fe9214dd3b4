/// A blend from one Milkdrop preset to the next in progress: it starts on a beat (or when the user
/// asks) and lasts `beats` beats of the tempo heard as it starts; it ends when that time is up or
/// on the last of its beats, whichever comes first (a tempo that drifted ends it on the beat).
public struct PresetTransition: Sendable {
    public let style: PresetTransitionStyle
    /// When it started, on the frames' clock.
    public let start: Double
    public let beats: Int
    /// Seconds from the start to the end.
    public let length: Double
    /// Four numbers in 0..<1 the shader varies its shape by (a circle's center, a sweep's angle),
    /// from the seed: the same change looks the same in every render.
    public let variation: (Float, Float, Float, Float)
    private var beatsHeard = 0
    private var lastBeat: Double?

    /// The beat length used without a tempo (120 BPM).
    public static let beatWithoutTempo = 0.5

    /// - Parameters:
    ///   - bpm: the tempo heard as it starts (0: none known).
    ///   - lastBeat: the beat heard last as it starts; later beats count toward its end.
    public init(style: PresetTransitionStyle, start: Double, beats: Int, bpm: Double, lastBeat: Double?, variationSeed: UInt64) {
        self.style = style
        self.start = start
        self.beats = max(1, beats)
        let beat = bpm > 0 ? 60 / bpm : Self.beatWithoutTempo
        length = Double(self.beats) * beat
        self.lastBeat = lastBeat
        var generator = SeededRandom(seed: variationSeed)
        func unit() -> Float { Float(generator.next() >> 40) / Float(1 << 24) }
        variation = (unit(), unit(), unit(), unit())
    }

    /// How far it has gone at `now` (0 at the start, toward 1), or nil once it is over; call once
    /// a frame with the beat heard by then.
    public mutating func progress(now: Double, beat: BeatPulse) -> Double? {
        if let heard = beat.lastBeat, heard != lastBeat {
            lastBeat = heard
            // The beat it started on is not counted; one heard within a tenth of a beat of the
            // start is that one.
            if heard > start + length * 0.1 / Double(beats) { beatsHeard += 1 }
        }
        let fraction = (now - start) / length
        guard fraction < 1, beatsHeard < beats else { return nil }
        return Swift.max(0, fraction)
    }
}
