import DecibarCore
import Testing

@Suite("A-B loops and hearing the scrubber's drag: the pure rules")
struct ABLoopTests {
    @Test("a loop from 10 to 12 s at 48 kHz: frames played on from A fold back into [A, B) after each jump")
    func fold() throws {
        let loop = try #require(ABLoop(seconds: 10, 12, sampleRate: 48000))
        #expect(loop.start == 480_000 && loop.end == 576_000 && loop.length == 96_000)
        // Played on from A, two jumps made: B is A again, and so is B plus a loop.
        #expect(loop.fileFrame(playedFrame: 500_000, origin: 480_000, wraps: 2) == 500_000)
        #expect(loop.fileFrame(playedFrame: 576_000, origin: 480_000, wraps: 2) == 480_000)
        #expect(loop.fileFrame(playedFrame: 600_000, origin: 480_000, wraps: 2) == 504_000)
        #expect(loop.fileFrame(playedFrame: 672_000, origin: 480_000, wraps: 2) == 480_000)
        // Only as many jumps as were made: the loop turned off after two, the audio plays on past B.
        #expect(loop.fileFrame(playedFrame: 768_000, origin: 480_000, wraps: 2) == 576_000)
        #expect(loop.fileFrame(playedFrame: 800_000, origin: 480_000, wraps: 2) == 608_000)
        // From before A: the first jump is still at B.
        #expect(loop.fileFrame(playedFrame: 580_000, origin: 0, wraps: 1) == 484_000)
        // From B or after it, or before any jump: nothing folds.
        #expect(loop.fileFrame(playedFrame: 700_000, origin: 576_000, wraps: 3) == 700_000)
        #expect(loop.fileFrame(playedFrame: 700_000, origin: 480_000, wraps: 0) == 700_000)
    }

    @Test("a loop must go forward and last 50 ms; one before the track starts at 0")
    func bounds() {
        #expect(ABLoop(seconds: 12, 10, sampleRate: 48000) == nil)
        #expect(ABLoop(seconds: 10, 10.04, sampleRate: 48000) == nil)
        #expect(ABLoop(seconds: 10, 10.05, sampleRate: 48000)?.length == 2400)
        #expect(ABLoop(seconds: .nan, 10, sampleRate: 48000) == nil)
        #expect(ABLoop(start: -5, end: 100) == nil && ABLoop(start: 5, end: 5) == nil)
        #expect(ABLoop(start: 5, end: 6)?.contains(5) == true && ABLoop(start: 5, end: 6)?.contains(6) == false)
    }

    @Test("scrub audio: the first position jumps at once; a grain plays 90 ms before the next; a pointer near what is heard is not chased")
    func grains() {
        var scrub = ScrubAudio(latency: 0.05)
        #expect(scrub.update(pointer: 30, heard: 10, now: 100) == .jump(to: 30))
        // The pointer ran on, but the grain has played only 50 ms.
        #expect(scrub.update(pointer: 30.05, heard: 30.05, now: 100.05) == .none)
        // 90 ms: the audio (30.09) is 0.06 s from the pointer: a jump (the hand moved at 1.5 s a second: no lead).
        #expect(scrub.update(pointer: 30.15, heard: 30.09, now: 100.125) == .jump(to: 30.15))
        #expect(abs(scrub.speed - 1.2) < 1e-9 && scrub.lead == 0)
        // A slow hand: 40 ms from the pointer is close enough, even after a whole grain.
        #expect(scrub.update(pointer: 30.2, heard: 30.24, now: 100.25) == .none)
        #expect(scrub.update(pointer: 30.3, heard: 30.36, now: 100.375) == .jump(to: 30.3))
    }

    @Test("scrub audio: a fast hand is aimed ahead, where it will be when the grain is half heard; backward too")
    func lead() {
        var forward = ScrubAudio(latency: 0.05)
        #expect(forward.update(pointer: 10, heard: 0, now: 0) == .jump(to: 10))
        // 4 s a second: 0.2 s for the latency and 0.135 s for the half grain the audio plays on by itself.
        #expect(forward.update(pointer: 10.5, heard: 10.1, now: 0.125) == .jump(to: 10.5 + (4 * 0.05 + 3 * ScrubAudio.grainSeconds / 2)))
        #expect(forward.speed == 4 && abs(forward.lead - 0.335) < 1e-12)
        var backward = ScrubAudio(latency: 0.05)
        _ = backward.update(pointer: 10, heard: 0, now: 0)
        let target = 9.5 + (-4 * 0.05 + -5 * ScrubAudio.grainSeconds / 2)
        #expect(backward.update(pointer: 9.5, heard: 10.1, now: 0.125) == .jump(to: target))
    }

    @Test("scrub audio: a pointer held still repeats its grain for 0.3 s, then falls silent once, until it moves")
    func stillPointer() {
        var scrub = ScrubAudio(latency: 0.05)
        #expect(scrub.update(pointer: 5, heard: 0, now: 10) == .jump(to: 5))
        #expect(scrub.update(pointer: 5, heard: 5.1, now: 10.1) == .jump(to: 5))
        #expect(scrub.update(pointer: 5, heard: 5.05, now: 10.25) == .none)
        #expect(scrub.update(pointer: 5, heard: 5.1, now: 10.3) == .silence)
        #expect(scrub.update(pointer: 5, heard: 5.1, now: 11) == .none)
        // It moves: heard at once, whatever the last grain was.
        #expect(scrub.update(pointer: 6, heard: 5.1, now: 11.01) == .jump(to: 6))
    }

    @Test("the scrubber: a drag seeks once on release; a shift-drag marks a loop in either direction and seeks nothing")
    func interaction() {
        let geometry = ScrubberGeometry(left: 100, width: 1000, duration: 100)
        var drag = ScrubberInteraction()
        #expect(drag.press(x: 50, isInsideScrubber: false, geometry: geometry, isPlaying: true) == .none && !drag.isActive)
        #expect(drag.press(x: 200, isInsideScrubber: true, geometry: geometry, isPlaying: true) == .startDrag(wasPlaying: true))
        drag.move(x: 600, geometry: geometry)
        #expect(drag.isSeeking && drag.previewTime == 50 && drag.loopSelection == nil)
        #expect(drag.release(x: 700, geometry: geometry) == .seek(to: 60, resume: true))
        #expect(!drag.isActive && drag.release(x: 700, geometry: geometry) == .none)

        #expect(drag.press(x: 700, isInsideScrubber: true, geometry: geometry, isPlaying: false, selectsLoop: true) == .none)
        drag.move(x: 300, geometry: geometry)
        #expect(!drag.isSeeking && drag.loopSelection! == (20, 60))
        #expect(drag.release(x: 250, geometry: geometry) == .loop(from: 15, to: 60))
        #expect(drag.loopSelection == nil && !drag.isActive)
    }
}
