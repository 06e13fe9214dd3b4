import DecibarCore

/// The A-B loop: `a` and `b` set its ends at the playhead (`A` clears them), a shift-drag on the
/// scrubber or `ctl ab-loop START END` sets both. Once both are set the playhead goes to A and the
/// stretch plays over and over, joined sample for sample (the decoder jumps back, see
/// `FilePlaybackSource`). It belongs to the track: another track starts without one.
extension PlaySession {
    /// Sets A at the playhead; a B before it is dropped.
    func setLoopStart() {
        guard hasTrack, !isLive else { return }
        let start = playhead
        if let end = loopPoints.end, end - start < ABLoop.minimumSeconds { loopPoints.end = nil }
        loopPoints.start = start
        applyLoop(seeking: loopPoints.end != nil)
        announce(loopPoints.end == nil ? "loop from \(Self.clock(start))" : loopLabel)
    }

    /// Sets B at the playhead (A at the track's start when it is not set, or after B).
    func setLoopEnd() {
        guard hasTrack, !isLive else { return }
        let end = playhead
        if let start = loopPoints.start, end - start < ABLoop.minimumSeconds { loopPoints.start = nil }
        guard end >= ABLoop.minimumSeconds else { return }
        loopPoints = (loopPoints.start ?? 0, end)
        applyLoop(seeking: true)
        announce(loopLabel)
    }

    /// Loops from `start` to `end` seconds, from A now; false (nothing changed) when the stretch is
    /// not within the track or shorter than `ABLoop.minimumSeconds`.
    @discardableResult
    func setLoop(from start: Double, to end: Double) -> Bool {
        guard hasTrack, !isLive, start >= 0, end - start >= ABLoop.minimumSeconds, duration <= 0 || start < duration else { return false }
        loopPoints = (start, duration > 0 ? min(end, duration) : end)
        applyLoop(seeking: true)
        announce(loopLabel)
        return true
    }

    /// Plays on past B.
    func clearLoop() {
        guard loopPoints.start != nil || loopPoints.end != nil else { return }
        loopPoints = (nil, nil)
        applyLoop(seeking: false)
        announce("A-B loop off")
    }

    /// The loop both ends make, if both are set.
    var abLoop: (start: Double, end: Double)? {
        guard let start = loopPoints.start, let end = loopPoints.end else { return nil }
        return (start, end)
    }

    /// Gives the source the loop (none unless both ends are set); with `seeking`, plays from A.
    func applyLoop(seeking: Bool) {
        let loop = abLoop.flatMap { ABLoop(seconds: $0.start, $0.end, sampleRate: sampleRate) }
        source?.setLoop(loop)
        if seeking, let loop = abLoop { seek(to: loop.start) }
    }

    private var loopLabel: String {
        abLoop.map { "A-B loop \(Self.clock($0.start)) – \(Self.clock($0.end))" } ?? "A-B loop off"
    }

    /// Seconds as m:ss.s, for the title's notice.
    private static func clock(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        let minutes = tenths / 600
        let rest = tenths % 600
        return "\(minutes):\(rest / 100)\(rest / 10 % 10).\(rest % 10)"
    }
}
