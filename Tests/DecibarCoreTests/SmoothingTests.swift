import DecibarCore
import Foundation
import Testing

@Suite("Display smoothing")
struct SmoothingTests {
    /// Runs a step from 0 to 1 for `seconds` at `rate` frames per second.
    func stepResponse(rate: Double, seconds: Double, times: SmoothingTimes = .default) -> Float {
        var smoother = BarSmoother(count: 1, times: times)
        let frames = Int((seconds * rate).rounded())
        for _ in 0 ..< frames { smoother.advance(toward: [1], dt: 1 / rate) }
        return smoother.values[0]
    }

    @Test("the default equals the original 0.9/0.1 filter at 60 Hz")
    func seedEquivalent() {
        #expect(abs(SmoothingTimes.seedTimeConstant - 0.158187) < 1e-6)
        var smoother = BarSmoother(count: 1)
        smoother.advance(toward: [1], dt: 1.0 / 60)
        #expect(abs(smoother.values[0] - 0.1) < 1e-6)
        smoother.advance(toward: [1], dt: 1.0 / 60)
        #expect(abs(smoother.values[0] - 0.19) < 1e-6)
    }

    @Test("the time constant is the same at 30, 60 and 144 Hz", arguments: [30.0, 60.0, 144.0])
    func frameRateIndependent(rate: Double) {
        let tau = SmoothingTimes.seedTimeConstant
        // After one time constant, 63.2 % of the step; after 0.5 s, 1 - e^(-0.5/tau).
        let afterHalfSecond = stepResponse(rate: rate, seconds: 0.5)
        #expect(abs(afterHalfSecond - Float(1 - exp(-0.5 / tau))) < 1e-4)
        let afterSecond = stepResponse(rate: rate, seconds: 1.0)
        #expect(abs(afterSecond - Float(1 - exp(-1.0 / tau))) < 1e-4)
    }

    @Test("irregular frame times give the same curve as steady ones")
    func jitter() {
        var steady = BarSmoother(count: 1)
        var jittery = BarSmoother(count: 1)
        for _ in 0 ..< 60 { steady.advance(toward: [1], dt: 1.0 / 60) }
        for index in 0 ..< 40 { jittery.advance(toward: [1], dt: index.isMultiple(of: 2) ? 0.01 : 0.04) }
        #expect(abs(steady.values[0] - jittery.values[0]) < 1e-4)
    }

    @Test("attack and release are separate")
    func attackRelease() {
        var smoother = BarSmoother(count: 2, times: SmoothingTimes(attack: 0.01, release: 0.5))
        smoother.reset(to: [0, 1])
        smoother.advance(toward: [1, 0], dt: 0.05)
        #expect(abs(smoother.values[0] - Float(1 - exp(-5.0))) < 1e-5)
        #expect(abs(smoother.values[1] - Float(exp(-0.1))) < 1e-5)
    }

    @Test("bars fall during silence instead of freezing")
    func fallsInSilence() {
        var smoother = BarSmoother(count: 4)
        smoother.reset(to: [1, 0.8, 0.8, 1])
        for _ in 0 ..< 120 { smoother.advance(toward: [0, 0, 0, 0], dt: 1.0 / 60) }
        #expect(smoother.values.allSatisfy { $0 < 0.01 })
    }

    @Test("a zero time constant jumps, a zero dt stands still")
    func edges() {
        #expect(SmoothingTimes.alpha(timeConstant: 0, dt: 0.016) == 1)
        #expect(SmoothingTimes.alpha(timeConstant: 0.1, dt: 0) == 0)
        var smoother = BarSmoother(count: 1)
        smoother.advance(toward: [1], dt: 0)
        #expect(smoother.values == [0])
        smoother.advance(toward: [1, 1, 1], dt: 1)
        #expect(smoother.values.count == 3)
    }
}
