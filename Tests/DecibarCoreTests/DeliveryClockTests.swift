import DecibarCore
import Testing

@Suite("Delivery clock")
struct DeliveryClockTests {
    /// 256-frame deliveries at 48 kHz captured from host time 10 s; `delays[n]` is how late delivery n arrived.
    private func stamps(delays: [Double], start: Double = 10) -> [Double] {
        var clock = DeliveryClock()
        return delays.enumerated().map { index, delay in
            let end = Int64(index + 1) * 256
            return clock.stamp(arrival: start + Double(end) / 48000 + delay, endFrame: end, sampleRate: 48000)
        }
    }

    @Test("a late delivery is stamped on the sample clock, from the earliest arrival seen")
    func lateDeliveries() {
        let result = stamps(delays: [0.002, 0.001, 0.020, 0.001, 0.015])
        // The first is all it knows; then the floor is 1 ms, and the 20 ms and 15 ms delays vanish.
        #expect(abs(result[0] - (10 + 256.0 / 48000 + 0.002)) < 1e-9)
        for index in 1 ..< 5 {
            #expect(abs(result[index] - (10 + Double(index + 1) * 256 / 48000 + 0.001)) < 1e-9)
        }
    }

    @Test("a stream that resumes later is followed within one window, and not before")
    func resumedStream() {
        // 1 ms late for 2 s, then every delivery 300 ms late (the stream stopped and went on).
        let perSecond = 48000 / 256
        let delays = Array(repeating: 0.001, count: 2 * perSecond) + Array(repeating: 0.301, count: 2 * perSecond)
        let result = stamps(delays: delays)
        let truth = { (index: Int, delay: Double) in 10 + Double(index + 1) * 256 / 48000 + delay }
        // The first deliveries after the jump still read on the old floor...
        #expect(abs(result[2 * perSecond] - truth(2 * perSecond, 0.001)) < 1e-9)
        // ...and by one window and one delivery later, on the new one.
        let after = 2 * perSecond + Int(DeliveryClock.windowDuration * 48000 / 256) + 2
        #expect(abs(result[after] - truth(after, 0.301)) < 1e-9)
        #expect(abs(result.last! - truth(delays.count - 1, 0.301)) < 1e-9)
    }

    @Test("the floor is the lowest of the last windows: an early arrival long ago stops counting")
    func floorForgets() {
        let perWindow = Int(DeliveryClock.windowDuration * 48000 / 256)
        // One delivery 0 ms late at the start, then 4 ms late (within the jump tolerance) for long.
        let count = perWindow * (DeliveryClock.windowCount + 3)
        let result = stamps(delays: [0] + Array(repeating: 0.004, count: count))
        let truth = { (index: Int, delay: Double) in 10 + Double(index + 1) * 256 / 48000 + delay }
        #expect(abs(result[perWindow] - truth(perWindow, 0)) < 1e-9)
        #expect(abs(result.last! - truth(count, 0.004)) < 1e-9)
    }

    @Test("reset forgets the floor")
    func resetForgets() {
        var clock = DeliveryClock()
        _ = clock.stamp(arrival: 1.0, endFrame: 48000, sampleRate: 48000)
        clock.reset()
        #expect(clock.stamp(arrival: 5.5, endFrame: 48000, sampleRate: 48000) == 5.5)
    }
}
