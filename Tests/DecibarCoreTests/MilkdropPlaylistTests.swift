import DecibarCore
import Testing

@Suite("Milkdrop's playlist and when its presets change")
struct MilkdropPlaylistTests {
    static let paths = (0 ..< 6).map { "/presets/p\($0).milk" }

    @Test("SplitMix64 from seed 0 gives its published first numbers")
    func generator() {
        var random = SeededRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("the same seed gives the same start and order; shuffle keeps every preset once")
    func seeded() {
        let a = PresetPlaylist(paths: Self.paths, shuffled: true, seed: 3)
        let b = PresetPlaylist(paths: Self.paths, shuffled: true, seed: 3)
        #expect(a.paths == b.paths && a.index == b.index)
        #expect(a.paths.sorted() == Self.paths)
        let plain = PresetPlaylist(paths: Self.paths, shuffled: false, seed: 3)
        #expect(plain.paths == Self.paths)
        let others = (0 ..< 20).map { PresetPlaylist(paths: Self.paths, shuffled: false, seed: UInt64($0)).index }
        #expect(Set(others).count > 1, "every seed started at \(others[0])")
    }

    @Test("next and previous wrap; a name finds its preset in any case; a path is added; a bad one is dropped")
    func moves() {
        var playlist = PresetPlaylist(paths: Self.paths, shuffled: false, seed: 0)
        let foundP5 = playlist.select(named: "P5")
        #expect(foundP5)
        playlist.next()
        #expect(playlist.current == "/presets/p0.milk")
        playlist.previous()
        #expect(playlist.current == "/presets/p5.milk")
        let foundMissing = playlist.select(named: "missing")
        #expect(!foundMissing)
        playlist.insert(path: "/elsewhere/x.milk")
        let foundPath = playlist.select(named: "/elsewhere/x.milk")
        #expect(foundPath && playlist.paths.count == 7)
        playlist.removeCurrent()
        #expect(playlist.paths.count == 6 && playlist.current == "/presets/p0.milk")
        playlist.jumpToRandom()
        #expect(playlist.current != "/presets/p0.milk")
        #expect(PresetPlaylist.name(of: "/a/b/Geiss - Cosmic Dust.MILK") == "Geiss - Cosmic Dust")
    }

    /// Frames every `step` seconds up to `end`, beats at `beats` (heard then, at `bpm`): the times
    /// of the frames a cut is due on.
    func cuts(duration: Double, beats: [Double], bpm: Double, end: Double, step: Double = 1.0 / 60) -> [Double] {
        var schedule = PresetSchedule(duration: duration, now: 0)
        var found: [Double] = []
        var frame = 0
        while Double(frame) * step <= end {
            let now = Double(frame) * step
            let last = beats.last { $0 <= now }
            let pulse = BeatPulse(lastBeat: last, bpm: last == nil ? 0 : bpm, confidence: 1)
            if schedule.isDue(now: now, beat: pulse) {
                found.append(now)
                schedule.restart(at: now)
            }
            frame += 1
        }
        return found
    }

    @Test("at 120 BPM with 4 s presets, cuts come on every eighth beat's frame: the bar's first beat after the time is up")
    func onTheDownbeat() {
        let beats = (1 ... 60).map { 0.25 + Double($0 - 1) * 0.5 }
        let found = cuts(duration: 4, beats: beats, bpm: 120, end: 20)
        // Beats 4, 8, ... from the start: the 8th (3.75 s) is before 4 s, so the 12th (5.75 s);
        // then 8 beats on from each cut (4 s later).
        let expected = [5.75, 9.75, 13.75, 17.75]
        #expect(found.count == expected.count, "\(found)")
        for (cut, beat) in zip(found, expected) { #expect(cut >= beat && cut - beat < 1.0 / 60, "\(found)") }
    }

    @Test("the first preset's time counts from the first frame, whatever the clock (a window's is the system's)")
    func firstFrame() {
        var schedule = PresetSchedule(duration: 4)
        let none = BeatPulse()
        let answers = [74_460, 74_463.9, 74_464].map { schedule.isDue(now: $0, beat: none) }
        #expect(answers == [false, false, true])
    }

    @Test("without a beat the cut comes on time; when beats stop, it no longer waits for them")
    func withoutBeats() {
        let silent = cuts(duration: 4, beats: [], bpm: 0, end: 13)
        #expect(silent.count == 3 && abs(silent[0] - 4) < 1.0 / 60, "\(silent)")
        let stopping = cuts(duration: 4, beats: [0.5, 1.0, 1.5], bpm: 120, end: 5)
        #expect(stopping.count == 1 && abs(stopping[0] - 4) < 1.0 / 60, "\(stopping)")
    }

    @Test("no bar's beat within a bar of the time being up (beats slower than the tempo said): the next beat will do")
    func missedDownbeat() {
        // The tempo says 120 BPM (a bar is 2 s) but beats come every 0.9 s: the 4th is at 3.6 s,
        // the 8th not before 7.2 s; the 7th, at 6.3 s, is the first beat past 4 + 2 s.
        let beats = (1 ... 10).map { Double($0) * 0.9 }
        let found = cuts(duration: 4, beats: beats, bpm: 120, end: 7)
        #expect(found.count == 1 && found[0] >= 6.3 && found[0] < 6.3 + 1.0 / 60, "\(found)")
    }
}
