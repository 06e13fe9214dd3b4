/// An A-B loop: the stretch of a track from frame `start` (A) up to, not including, frame `end` (B),
/// played over and over, each pass joined to the next without a gap.
///
/// The decoder jumps back from B to A and the audio goes on as one stream: a player counts the
/// frames it plays straight on from where it last started (a seek's target), as if no jump were
/// made. `fileFrame(playedFrame:origin:wraps:)` folds such a count back into the file: the jumps
/// come at B, then every loop's length after, as many as were made.
public struct ABLoop: Sendable, Equatable {
    public let start: Int64
    public let end: Int64

    /// The shortest loop (at 48 kHz, 50 ms): each pass is a seek of the decoder.
    public static let minimumSeconds = 0.05

    /// Nil unless `end` comes after `start` (and `start` is not before the track).
    public init?(start: Int64, end: Int64) {
        guard start >= 0, end > start else { return nil }
        self.start = start
        self.end = end
    }

    /// The loop from `start` to `end` seconds at `sampleRate`; nil when it is shorter than
    /// `minimumSeconds` or reversed.
    public init?(seconds start: Double, _ end: Double, sampleRate: Int) {
        guard start.isFinite, end.isFinite, end - start >= Self.minimumSeconds else { return nil }
        self.init(start: Int64((max(0, start) * Double(sampleRate)).rounded()), end: Int64((end * Double(sampleRate)).rounded()))
    }

    public var length: Int64 { end - start }

    /// The file frame of `playedFrame`, a count of frames played straight on from `origin` (the
    /// file frame playing began at), after `wraps` jumps back from B to A. Playing that began at or
    /// after B never jumps.
    public func fileFrame(playedFrame: Double, origin: Int64, wraps: Int) -> Double {
        guard wraps > 0, origin < end, playedFrame >= Double(end) else { return playedFrame }
        let passed = Int(((playedFrame - Double(end)) / Double(length)).rounded(.down)) + 1
        return playedFrame - Double(min(wraps, passed)) * Double(length)
    }

    /// Whether `frame` lies in the loop.
    public func contains(_ frame: Int64) -> Bool { frame >= start && frame < end }
}
