import DecibarCore
import Testing

@Suite("Heard clock")
struct HeardClockTests {
    @Test("one snapshot places every frame: the newest captured heard after the output's latency")
    func oneSnapshot() {
        var clock = HeardClock()
        #expect(clock.heardTime(ofPosition: 0, sampleRate: 48000) == nil)
        // At 20 s: 4800 frames queued, 2 ms captured but not queued, the output 10 ms behind.
        clock.note(time: 20, written: 4800, unqueued: 0.002, outputLatency: 0.010, sampleRate: 48000)
        // Frame 4896 (4800 + 2 ms) is the newest: heard at 20.010. Frame 0 is 102 ms before it.
        #expect(abs(clock.heardTime(ofPosition: 4896, sampleRate: 48000)! - 20.010) < 1e-12)
        #expect(abs(clock.heardTime(ofPosition: 0, sampleRate: 48000)! - (20.010 - 0.102)) < 1e-12)
    }

    @Test("one snapshot in five may read early: the offset stays at the low edge of the others")
    func earlySnapshot() {
        var clock = HeardClock()
        // Ten snapshots 0.1 s apart, late by 0, 1, 2, 3, 4 ms in turn; the fourth reads 6 ms early.
        for index in 0 ..< 10 {
            let time = 10 + Double(index) / 10
            let late = index == 3 ? -0.006 : Double(index % 5) / 1000
            clock.note(time: time + late, written: Int64(index) * 4800, unqueued: 0, outputLatency: 0, sampleRate: 48000)
        }
        // Offsets -6, 0, 0, 1, 1, 2, 2, 3, 4, 4 ms: the 20th percentile (two below it) is 0.
        #expect(abs(clock.offset! - 10) < 1e-12)
    }

    @Test("time that moves later (a cycle the graph missed) is followed after five snapshots, not two seconds")
    func timeMovesLater() {
        var clock = HeardClock()
        for index in 0 ..< 10 {
            clock.note(time: 10 + Double(index) / 10, written: Int64(index) * 4800, unqueued: 0, outputLatency: 0, sampleRate: 48000)
        }
        #expect(abs(clock.offset! - 10) < 1e-12)
        // From 11 s every snapshot reads 5.33 ms later (one 256-frame cycle).
        for index in 10 ..< 14 {
            clock.note(time: 10 + Double(index) / 10 + 256.0 / 48000, written: Int64(index) * 4800, unqueued: 0,
                       outputLatency: 0, sampleRate: 48000)
            #expect(abs(clock.offset! - 10) < 1e-12, "moved after \(index - 9) late snapshots")
        }
        clock.note(time: 11.4 + 256.0 / 48000, written: 14 * 4800, unqueued: 0, outputLatency: 0, sampleRate: 48000)
        #expect(abs(clock.offset! - (10 + 256.0 / 48000)) < 1e-9)
    }

    @Test("a snapshot more than 4 ms late makes the clock doubt (its tap asks for the next at once) until it follows or one reads on time")
    func doubt() {
        var clock = HeardClock()
        for index in 0 ..< 10 {
            clock.note(time: 10 + Double(index) / 10, written: Int64(index) * 4800, unqueued: 0, outputLatency: 0, sampleRate: 48000)
        }
        #expect(!clock.isDoubting)
        // 3.9 ms late: within a cycle's lateness, no doubt.
        clock.note(time: 11.0039, written: 48000, unqueued: 0, outputLatency: 0, sampleRate: 48000)
        #expect(!clock.isDoubting)
        // A cycle late, asked again 5 ms apart: doubt until the fifth, where the clock follows.
        for step in 0 ..< 5 {
            clock.note(time: 11.1 + Double(step) * 0.005 + 256.0 / 48000, written: 52800 + Int64(step) * 240, unqueued: 0,
                       outputLatency: 0, sampleRate: 48000)
            #expect(clock.isDoubting == (step < 4), "after \(step + 1) late snapshots")
        }
        #expect(abs(clock.offset! - (10 + 256.0 / 48000)) < 1e-9)
        // One late outlier, then one on time: the doubt ends without a move.
        clock.note(time: 11.2 + 0.006 + 256.0 / 48000, written: 57600, unqueued: 0, outputLatency: 0, sampleRate: 48000)
        #expect(clock.isDoubting)
        clock.note(time: 11.3 + 256.0 / 48000, written: 62400, unqueued: 0, outputLatency: 0, sampleRate: 48000)
        #expect(!clock.isDoubting)
    }

    @Test("a snapshot late within a cycle does not move the clock; one on time does, at once")
    func lowestOffset() {
        var clock = HeardClock()
        // Frames written in 256-frame cycles; snapshots taken 0 to 5 ms into a cycle read late.
        clock.note(time: 10.004, written: 480_000, unqueued: 0, outputLatency: 0, sampleRate: 48000)
        #expect(abs(clock.offset! - 0.004) < 1e-12)
        clock.note(time: 10.105, written: 484_800, unqueued: 0, outputLatency: 0, sampleRate: 48000)
        #expect(abs(clock.offset! - 0.004) < 1e-12)
        clock.note(time: 10.2001, written: 489_600, unqueued: 0, outputLatency: 0, sampleRate: 48000)
        #expect(abs(clock.offset! - 0.0001) < 1e-12)
    }

    @Test("the offset follows a clock that drifts: snapshots older than the window stop counting")
    func window() {
        var clock = HeardClock()
        // The sample clock runs 0.1 % slow: a snapshot at t reads offset 0.001·t (47952 frames a second).
        for half in 0 ... 10 {
            let time = Double(half) / 2
            clock.note(time: time, written: Int64(half) * 23976, unqueued: 0, outputLatency: 0, sampleRate: 48000)
        }
        // At 5 s the window holds 3 s to 5 s (3, 3.5, 4, 4.5, 5 ms): the 20th percentile is 3.5 s's.
        #expect(abs(clock.offset! - 0.0035) < 1e-12)
        clock.reset()
        #expect(clock.offset == nil)
    }
}
