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

    /// Runs a self-paced loop whose frames take `drawing(time)` seconds to draw; returns when each
    /// frame was shown and the divisor then.
    private static func run(_ pacer: inout FramePacer, from start: Double, seconds: Double,
                            drawing: (Double) -> Double) -> (shown: [Double], divisors: [Int], end: Double) {
        var now = start
        var shown: [Double] = [], divisors: [Int] = []
        while now < start + seconds {
            pacer.frameStarted(at: now)
            let began = now
            now += drawing(now)
            now += pacer.presentDelay(drawnAt: now, startedAt: began)
            shown.append(now)
            divisors.append(pacer.divisor)
            now += pacer.delayAfterFrame(finishedAt: now)
        }
        return (shown, divisors, now)
    }

    @Test("frames that take 20 to 28 ms at 60 Hz are shown every other slot, each within 2 ms of 33.3 ms after the last, once 30 drawings are seen")
    func steadyDivisor() {
        var pacer = FramePacer(refreshRate: 60, vsyncClaimed: false)
        let drawings = [0.020, 0.026, 0.022, 0.028, 0.024]
        var count = 0
        let (shown, divisors, _) = Self.run(&pacer, from: 0, seconds: 10) { _ in
            count += 1
            return drawings[count % drawings.count]
        }
        #expect(pacer.divisor == 2)
        let first = divisors.firstIndex(of: 2) ?? shown.count
        #expect(first == FramePacer.divisorObservations - 1)
        // From the second frame after the change (the first moves onto the new budget), every
        // interval is two periods, give or take the lateness of a drawing longer than the budget.
        let gaps = zip(shown[(first + 3)...], shown[(first + 2)...]).map { $0 - $1 }
        #expect(gaps.count > 250 && gaps.allSatisfy { abs($0 - 2.0 / 60) <= 0.002 }, "\(gaps.prefix(8))")
        // The budget: the longest drawing less the lateness allowed.
        #expect(abs(pacer.drawBudget - (0.028 - FramePacer.allowedLateness)) < 1e-9)
    }

    @Test("40 ms frames go to 20 a second; 13 ms ones after 23 ms ones stay at 30 (between the thresholds); 5 ms ones return to 60, each change a second or more after the last")
    func divisorFollowsDrawings() {
        var pacer = FramePacer(refreshRate: 60, vsyncClaimed: false)
        var run = Self.run(&pacer, from: 0, seconds: 4) { _ in 0.040 }
        #expect(pacer.divisor == 3)
        // (Going down waits until 95 % of the last 90 drawings are faster: 4.5 s at 20 a second.)
        run = Self.run(&pacer, from: run.end, seconds: 6) { _ in 0.023 }
        #expect(pacer.divisor == 2 && run.divisors.allSatisfy { $0 >= 2 }, "\(pacer.divisor)")
        run = Self.run(&pacer, from: run.end, seconds: 6) { _ in 0.013 }
        #expect(run.divisors.allSatisfy { $0 == 2 }, "13 ms fits 60 Hz's 15 ms, but not with room: no flapping")
        let back = Self.run(&pacer, from: run.end, seconds: 6) { _ in 0.005 }
        #expect(pacer.divisor == 1)
        // The changes: at most one a second.
        var changes: [Double] = []
        for index in back.divisors.indices.dropFirst() where back.divisors[index] != back.divisors[index - 1] { changes.append(back.shown[index]) }
        #expect(changes.count == 1)
    }

    @Test("a few slow frames (a shader compiling) among fast ones change nothing; a vsync that paces keeps the divisor at 1")
    func divisorIgnoresStalls() {
        var pacer = FramePacer(refreshRate: 60, vsyncClaimed: false)
        let stalls = Self.run(&pacer, from: 0, seconds: 5) { now in Int(now * 60) % 40 == 0 ? 0.05 : 0.004 }
        #expect(pacer.divisor == 1, "\(zip(stalls.shown, stalls.divisors).map { String(format: "%.4f/%d", $0, $1) }.joined(separator: " "))")
        var synced = FramePacer(refreshRate: 60, vsyncClaimed: true)
        var now = 0.0
        for _ in 0 ..< 200 {
            synced.frameStarted(at: now)
            #expect(synced.presentDelay(drawnAt: now + 0.03, startedAt: now) == 0)
            now += 2.0 / 60
        }
        #expect(synced.isVSyncTrusted && synced.divisor == 1)
    }

    @Test("at 15 a second, a frame drawn more than half a slot late is shown for five slots and the next for four again: one unsteady frame each (steps 4 5 4), not two (4 5 3 4)")
    func lateFrameTakesUpTheCadence() {
        var pacer = FramePacer(refreshRate: 60, vsyncClaimed: false)
        // 36-52 ms drawings (shown every 4 slots), and every 37th one 76 ms: more than the 4
        // slots (66.7 ms) the slowest divisor allows, so it ends 11 ms after its slot.
        let drawings = [0.036, 0.040, 0.044, 0.048, 0.052]
        var count = 0
        let (shown, divisors, _) = Self.run(&pacer, from: 0, seconds: 30) { _ in
            count += 1
            return count % 37 == 0 ? 0.076 : drawings[count % drawings.count]
        }
        let settled = (divisors.firstIndex(of: 4) ?? shown.count) + 8
        #expect(divisors[settled...].allSatisfy { $0 == 4 })
        // Each frame's slot on the display's grid (a late one's: the slot it was shown nearest),
        // and how many slots each came after the last.
        let origin = shown[0]   // the first frame, shown at once, starts the grid
        let slots = shown[settled...].map { (($0 - origin) * 60).rounded() }
        let steps = zip(slots.dropFirst(), slots).map { Int($0 - $1) }
        let late = (settled ..< shown.count).filter { ($0 + 1) % 37 == 0 }.count
        #expect(late >= 8)
        #expect(steps.filter { $0 != 4 }.count == late, "\(late) late frames; steps: \(steps.map(String.init).joined(separator: " "))")
        #expect(steps.allSatisfy { $0 == 4 || $0 == 5 }, "steps: \(steps.map(String.init).joined(separator: " "))")
        // Frames on time are shown at their slots exactly.
        let offSlot = shown[settled...].filter { abs(($0 - origin) * 60 - (($0 - origin) * 60).rounded()) > 1e-6 }
        #expect(offSlot.count <= late, "\(offSlot.count) frames off their slot")
    }
}
