/// When a Milkdrop preset gives way to the next: once it has shown for `duration`, on the next
/// downbeat (the change, a cut or the start of a transition, is on the beat); in music without a
/// beat, on time.
///
/// A downbeat is counted from the cut before: every fourth beat heard since (4/4 from the beat the
/// last cut was on). Should the bar's beat not come within a bar of the time being up (a tempo
/// change, a beat missed), the next beat will do; with no beat for two beats' time, the cut comes
/// as soon as the time is up.
public struct PresetSchedule: Sendable {
    public var duration: Double
    public static let beatsPerBar = 4
    /// When the preset shown began (nil until the first frame: its clock may be any).
    private var shownSince: Double?
    private var beatsSinceCut = 0
    private var lastBeat: Double?
    /// The beat the cut `isDue` asked for is on: the next preset's time counts from it.
    private var cutBeat: Double?

    /// - Parameter now: when the first preset shows; nil: on the first frame asked about.
    public init(duration: Double, now: Double? = nil) {
        self.duration = duration
        shownSince = now
    }

    /// A preset was shown at `now` (a cut, or the user's choice): its time starts again, from the
    /// beat when the cut was on one (the frame showing it comes a little after).
    public mutating func restart(at now: Double) {
        shownSince = Swift.min(now, cutBeat ?? now)
        cutBeat = nil
        beatsSinceCut = 0
    }

    /// Whether to change preset on this frame; call once per frame with the beat heard by `now`.
    public mutating func isDue(now: Double, beat: BeatPulse) -> Bool {
        if shownSince == nil { shownSince = now }
        let shownSince = self.shownSince ?? now
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
        guard beatsSinceCut % Self.beatsPerBar == 0 || shown >= duration + Double(Self.beatsPerBar) * 60 / beat.bpm else { return false }
        cutBeat = heard
        return true
    }
}
