/// When a Milkdrop preset gives way to the next: once it has shown for `duration`, on the next
/// downbeat (a hard cut on the beat); in music without a beat, on time.
///
/// A downbeat is counted from the cut before: every fourth beat heard since (4/4 from the beat the
/// last cut was on). Should the bar's beat not come within a bar of the time being up (a tempo
/// change, a beat missed), the next beat will do; with no beat for two beats' time, the cut comes
/// as soon as the time is up.
public struct PresetSchedule: Sendable {
    public var duration: Double
    public static let beatsPerBar = 4
    private var shownSince: Double
    private var beatsSinceCut = 0
    private var lastBeat: Double?

    public init(duration: Double, now: Double) {
        self.duration = duration
        shownSince = now
    }

    /// A preset was shown at `now` (a cut, or the user's choice): its time starts again.
    public mutating func restart(at now: Double) {
        shownSince = now
        beatsSinceCut = 0
    }

    /// Whether to change preset on this frame; call once per frame with the beat heard by `now`.
    public mutating func isDue(now: Double, beat: BeatPulse) -> Bool {
        var onBeat = false
        if let heard = beat.lastBeat, heard != lastBeat {
            lastBeat = heard
            if heard >= shownSince {
                beatsSinceCut += 1
                onBeat = true
            }
        }
        let shown = now - shownSince
        guard shown >= duration else { return false }
        guard beat.bpm > 0, let heard = beat.lastBeat, now - heard <= 2 * 60 / beat.bpm else { return true }
        guard onBeat else { return false }
        if beatsSinceCut % Self.beatsPerBar == 0 { return true }
        return shown >= duration + Double(Self.beatsPerBar) * 60 / beat.bpm
    }
}
