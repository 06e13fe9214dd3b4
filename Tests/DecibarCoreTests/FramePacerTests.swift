import DecibarCore
import Testing

@Suite("Frame pacing")
struct FramePacerTests {
    @Test("without vsync, frames are spaced one period apart")
    func manual() {
        var pacer = FramePacer(refreshRate: 60, vsyncClaimed: false)
        var now = 0.0
        var starts: [Double] = []
        for _ in 0 ..< 10 {
            pacer.frameStarted(at: now)
            starts.append(now)
            now += 0.004 // drawing takes 4 ms
            now += pacer.delayAfterFrame(finishedAt: now)
        }
        let gaps = zip(starts.dropFirst(), starts).map { $0 - $1 }
        for gap in gaps.dropFirst() { #expect(abs(gap - 1.0 / 60) < 1e-9) }
    }

    @Test("after a stall the pacer does not rush to catch up, and keeps its grid")
    func stall() {
        var pacer = FramePacer(refreshRate: 100, vsyncClaimed: false)
        let budget = pacer.drawBudget
        #expect(abs(budget - 0.001) < 1e-12, "2 ms of drawing assumed, less the lateness allowed")
        // The first frame ends at 0.002: the grid is 0.012, 0.022, ...; the next frame starts a
        // budget before its slot.
        #expect(abs(pacer.delayAfterFrame(finishedAt: 0.002) - (0.012 - budget - 0.002)) < 1e-9)
        // The frame of slot 0.012 is shown only at 0.0455: slots 0.022 to 0.042 are gone, and the
        // next frame is for 0.052 (not 0.0555, a new grid from the late frame).
        #expect(abs(pacer.delayAfterFrame(finishedAt: 0.0455) - (0.052 - budget - 0.0455)) < 1e-9)
        // And the grid goes on from there.
        #expect(abs(pacer.delayAfterFrame(finishedAt: 0.0552) - (0.062 - budget - 0.0552)) < 1e-9)
    }

    @Test("a frame drawn ahead is shown at its slot; the budget follows the longest recent drawing")
    func presentAtSlot() {
        var pacer = FramePacer(refreshRate: 100, vsyncClaimed: false)
        #expect(pacer.presentDelay(drawnAt: 0.001, startedAt: 0) == 0, "the first frame shows at once")
        _ = pacer.delayAfterFrame(finishedAt: 0.002)   // slot 0.012
        // Started at 0.0092, drawn by 0.0102: shown 1.8 ms later, at the slot.
        #expect(abs(pacer.presentDelay(drawnAt: 0.0102, startedAt: 0.0092) - 0.0018) < 1e-9)
        _ = pacer.delayAfterFrame(finishedAt: 0.012)   // slot 0.022
        // A 5 ms drawing ends after its slot: shown at once, and the next frame starts 4 ms ahead.
        #expect(pacer.presentDelay(drawnAt: 0.0242, startedAt: 0.0192) == 0)
        #expect(abs(pacer.drawBudget - 0.004) < 1e-9)
        #expect(abs(pacer.delayAfterFrame(finishedAt: 0.0243) - (0.032 - 0.004 - 0.0243)) < 1e-9, "the next slot keeps its place")
        // Ten seconds of 1 ms drawings: the budget is down to its least.
        var start = 0.0362
        for _ in 0 ..< 1000 {
            _ = pacer.presentDelay(drawnAt: start + 0.001, startedAt: start)
            start += 0.01
        }
        #expect(abs(pacer.drawBudget - FramePacer.minimumBudget) < 1e-9)
        // A slow frame raises it until 90 frames have passed.
        _ = pacer.presentDelay(drawnAt: start + 0.004, startedAt: start)
        #expect(abs(pacer.drawBudget - 0.003) < 1e-9)
        for _ in 0 ..< FramePacer.drawWindow {
            start += 0.01
            _ = pacer.presentDelay(drawnAt: start + 0.001, startedAt: start)
        }
        #expect(abs(pacer.drawBudget - FramePacer.minimumBudget) < 1e-9)
    }

    @Test("the budget never takes more than 60 % of a frame")
    func budgetCap() {
        var pacer = FramePacer(refreshRate: 100, vsyncClaimed: false)
        _ = pacer.presentDelay(drawnAt: 0.05, startedAt: 0)
        #expect(abs(pacer.drawBudget - 0.006) < 1e-12)
    }

    @Test("a claimed vsync that does not throttle is caught and replaced by pacing")
    func fakeVSync() {
        var pacer = FramePacer(refreshRate: 60, vsyncClaimed: true)
        var now = 0.0
        for _ in 0 ..< 40 {
            pacer.frameStarted(at: now)
            now += 0.001
            now += pacer.delayAfterFrame(finishedAt: now)
        }
        #expect(!pacer.isVSyncTrusted)
        #expect(pacer.delayAfterFrame(finishedAt: now) > 0.01)
    }

    @Test("a vsync that throttles is trusted and no sleep is added")
    func realVSync() {
        var pacer = FramePacer(refreshRate: 60, vsyncClaimed: true)
        var now = 0.0
        for _ in 0 ..< 40 {
            pacer.frameStarted(at: now)
            now += 1.0 / 60 // the swap blocks until the next vertical blank
        }
        #expect(pacer.isVSyncTrusted)
        #expect(pacer.delayAfterFrame(finishedAt: now) == 0)
    }

    @Test("an unknown refresh rate means 60 Hz")
    func unknownRate() {
        #expect(abs(FramePacer(refreshRate: nil, vsyncClaimed: false).period - 1.0 / 60) < 1e-12)
        #expect(abs(FramePacer(refreshRate: 0, vsyncClaimed: false).period - 1.0 / 60) < 1e-12)
        #expect(abs(FramePacer(refreshRate: 144, vsyncClaimed: false).period - 1.0 / 144) < 1e-12)
    }
}
