import DecibarCore
import Testing

@Suite("Milkdrop transitions: their style, length and end")
struct PresetTransitionTests {
    @Test("random picks each of the six blended styles from the seed, the same every time; a named style is itself")
    func styles() {
        #expect(PresetTransitionStyle.blended.map(\.rawValue) == ["blend", "circle", "plasma", "sweep", "warp", "zoom"])
        let picks = (0 ..< 60).map { PresetTransitionStyle.random.resolved(seed: 1, index: $0) }
        #expect(Set(picks) == Set(PresetTransitionStyle.blended), "\(Set(picks))")
        #expect(picks == (0 ..< 60).map { PresetTransitionStyle.random.resolved(seed: 1, index: $0) })
        let otherSeed = (0 ..< 60).map { PresetTransitionStyle.random.resolved(seed: 2, index: $0) }
        #expect(picks != otherSeed)
        #expect(PresetTransitionStyle.circle.resolved(seed: 9, index: 4) == .circle)
        #expect(PresetTransitionStyle.cut.resolved(seed: 9, index: 4) == .cut)
    }

    @Test("at 120 BPM, two beats from a beat at 10 s: progress 0, 0.5 at 10.5 s, over at 11 s (by time, with no beat heard)")
    func byTime() {
        var transition = PresetTransition(style: .blend, start: 10, beats: 2, bpm: 120, lastBeat: 10, variationSeed: 1)
        #expect(transition.length == 1)
        let beat = BeatPulse(lastBeat: 10, bpm: 120, confidence: 1)
        #expect(transition.progress(now: 10, beat: beat) == 0)
        #expect(transition.progress(now: 10.5, beat: beat) == 0.5)
        #expect(transition.progress(now: 10.999, beat: beat).map { abs($0 - 0.999) < 1e-9 } == true)
        #expect(transition.progress(now: 11, beat: beat) == nil)
    }

    @Test("it ends on its last beat when that comes early (the tempo sped up); the beat it started on does not count")
    func byBeats() {
        var transition = PresetTransition(style: .sweep, start: 10, beats: 2, bpm: 120, lastBeat: 9.5, variationSeed: 1)
        // The beat it started on, heard a frame late.
        #expect(transition.progress(now: 10.02, beat: BeatPulse(lastBeat: 10.0, bpm: 120, confidence: 1)) != nil)
        #expect(transition.progress(now: 10.45, beat: BeatPulse(lastBeat: 10.45, bpm: 120, confidence: 1)) != nil)
        #expect(transition.progress(now: 10.9, beat: BeatPulse(lastBeat: 10.9, bpm: 120, confidence: 1)) == nil)
    }

    @Test("without a tempo a beat lasts half a second; one beat at least; the variation is in 0..<1 and follows the seed")
    func withoutTempo() {
        let transition = PresetTransition(style: .zoom, start: 0, beats: 3, bpm: 0, lastBeat: nil, variationSeed: 5)
        #expect(transition.length == 1.5)
        #expect(PresetTransition(style: .zoom, start: 0, beats: 0, bpm: 60, lastBeat: nil, variationSeed: 5).length == 1)
        let again = PresetTransition(style: .zoom, start: 0, beats: 3, bpm: 0, lastBeat: nil, variationSeed: 5)
        let other = PresetTransition(style: .zoom, start: 0, beats: 3, bpm: 0, lastBeat: nil, variationSeed: 6)
        let values = [transition.variation.0, transition.variation.1, transition.variation.2, transition.variation.3]
        #expect(values.allSatisfy { $0 >= 0 && $0 < 1 } && Set(values).count == 4, "\(values)")
        #expect(values == [again.variation.0, again.variation.1, again.variation.2, again.variation.3])
        #expect(values != [other.variation.0, other.variation.1, other.variation.2, other.variation.3])
    }
}
