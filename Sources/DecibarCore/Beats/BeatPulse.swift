import RealModule

/// The beat as a display frame sees it: when the last beat was heard and the tempo, turned into
/// the shaders' `u_beat` (1 at the beat, falling by half every 80 ms), `u_beat_phase` (0 at a
/// beat, rising to 1 at the next one expected) and `u_bpm`.
public struct BeatPulse: Sendable, Equatable {
    /// When the last beat was heard, on the feed's clock; nil before any.
    public var lastBeat: Double?
    /// The tempo (0 while none is known).
    public var bpm: Double
    public var confidence: Double

    /// Seconds for `level` to halve.
    public static let halfLife = 0.08

    public init(lastBeat: Double? = nil, bpm: Double = 0, confidence: Double = 0) {
        self.lastBeat = lastBeat
        self.bpm = bpm
        self.confidence = confidence
    }

    /// 1 at the beat, halving every `halfLife` seconds after it; 0 before any beat.
    public func level(at now: Double) -> Float {
        guard let lastBeat else { return 0 }
        let since = max(0, now - lastBeat)
        return Float(Double.exp2(-since / Self.halfLife))
    }

    /// 0 at the last beat, rising evenly to 1 where the next is expected (and staying there
    /// should it not come); 0 without a tempo.
    public func phase(at now: Double) -> Float {
        guard let lastBeat, bpm > 0 else { return 0 }
        return Float(min(1, max(0, (now - lastBeat) * bpm / 60)))
    }
}
