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

    @Test("after a stall the pacer does not rush to catch up")
    func stall() {
        var pacer = FramePacer(refreshRate: 100, vsyncClaimed: false)
        _ = pacer.delayAfterFrame(finishedAt: 0)
        #expect(abs(pacer.delayAfterFrame(finishedAt: 1.0) - 0.01) < 1e-9)
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
