import DecibarCore
import Testing

@Suite("Dynamic scale of a costly picture")
struct DynamicScaleTests {
    static let period = 1.0 / 60

    /// Feeds `count` drawings of `seconds`, a refresh apart from `start`; the time after them, and
    /// the scale after each decision that changed it.
    static func feed(_ scale: inout DynamicScale, _ seconds: Double, count: Int = DynamicScale.window,
                     from start: Double) -> (end: Double, changes: [Double]) {
        var now = start, changes: [Double] = []
        for _ in 0 ..< count {
            if scale.observe(drawing: seconds, period: period, now: now) { changes.append(scale.scale) }
            now += period
        }
        return (now, changes)
    }

    @Test("a picture four times over its budget is halved at once after one window of drawings, never below the floor")
    func down() {
        var scale = DynamicScale()
        #expect(scale.scale == 1)
        // 19 drawings decide nothing; the 20th does: 40 ms against 7.5 ms (0.45 of 16.7).
        var result = Self.feed(&scale, 0.040, count: 19, from: 0)
        #expect(result.changes.isEmpty && scale.scale == 1)
        result = Self.feed(&scale, 0.040, count: 1, from: result.end)
        // sqrt(7.5 * 0.9 / 40) is 0.41, a fall of at most a half at a time: 0.5.
        #expect(result.changes == [0.5])
        result = Self.feed(&scale, 0.040, count: 60, from: result.end)
        #expect(result.changes == [0.25], "\(result.changes)")
        #expect(scale.scale == DynamicScale.floor)
    }

    @Test("well under its budget it grows again, by at most a quarter, once a second has passed since the last change")
    func up() {
        var scale = DynamicScale(start: 0.5)
        // 2 ms is under 0.6 of 7.5 ms; the first decision (at 0.33 s, no change yet) may rise.
        var result = Self.feed(&scale, 0.002, from: 0)
        #expect(result.changes == [0.625], "\(result.changes)")
        // The next window comes 0.33 s after that change: held.
        result = Self.feed(&scale, 0.002, from: result.end)
        #expect(result.changes.isEmpty)
        result = Self.feed(&scale, 0.002, count: 60, from: result.end)
        #expect(result.changes == [0.75], "0.625 x 1.25 = 0.78, in sixteenths down: \(result.changes)")
    }

    @Test("a scale found too slow is not tried again for 10 s: no flapping between two steps")
    func noFlapping() {
        var scale = DynamicScale(start: 0.3125)
        // 9 ms at 0.3125: over budget, down to 0.25 (at 0.33 s).
        var result = Self.feed(&scale, 0.009, from: 0)
        #expect(result.changes == [0.25])
        // 3 ms at 0.25 is well under: it would rise to 0.3125, which was too slow 0.33 s ago.
        result = Self.feed(&scale, 0.003, count: 60 * 9, from: result.end)
        #expect(result.changes.isEmpty, "\(result.changes)")
        result = Self.feed(&scale, 0.003, count: 90, from: result.end)
        #expect(result.changes == [0.3125], "\(result.changes)")
    }

    @Test("within its budget it stays; a new picture starts a new window; nonsense is ignored")
    func steady() {
        var scale = DynamicScale(start: 0.75)
        var result = Self.feed(&scale, 0.006, count: 600, from: 0)
        #expect(result.changes.isEmpty && scale.scale == 0.75)
        // Half a window of slow drawings, then another picture: its window starts afresh.
        result = Self.feed(&scale, 0.040, count: 15, from: result.end)
        scale.restart()
        result = Self.feed(&scale, 0.040, count: 19, from: result.end)
        #expect(result.changes.isEmpty)
        for nonsense in [-1, .nan, .infinity] {
            let changed = scale.observe(drawing: nonsense, period: Self.period, now: result.end)
            #expect(!changed)
        }
        let changed = scale.observe(drawing: 0.040, period: 0, now: result.end)
        #expect(!changed)
        #expect(scale.scale == 0.75)
        // Starting points are kept in range and in steps.
        #expect(DynamicScale(start: 3).scale == 1 && DynamicScale(start: 0.1).scale == 0.25 && DynamicScale(start: 0.6).scale == 0.5625)
    }
}
