/// What the stats overlay says of the frames: how many a second, how long each took (median and
/// 90th percentile), and how many came late, over the last second. A ring of fixed size, so a
/// frame allocates nothing; the figures are worked out only when asked (while the overlay shows).
public struct FrameStatistics: Sendable {
    /// Enough for a second at 1000 frames a second (the most `display.fps` allows).
    public static let capacity = 1024
    /// How far back the figures look.
    public static let window = 1.0

    private var starts = [Double](repeating: 0, count: capacity)
    private var durations = [Double](repeating: 0, count: capacity)
    private var late = [Bool](repeating: false, count: capacity)
    private var next = 0
    private var count = 0

    public init() {}

    /// A frame that started at `start` (seconds) and took `duration` to draw; `isLate` when it
    /// missed its slot.
    public mutating func record(start: Double, duration: Double, isLate: Bool) {
        starts[next] = start
        durations[next] = duration
        late[next] = isLate
        next = (next + 1) % Self.capacity
        count = min(Self.capacity, count + 1)
    }

    public struct Summary: Sendable, Equatable {
        public var framesPerSecond: Double
        /// Seconds.
        public var medianFrameTime: Double
        public var p90FrameTime: Double
        public var lateFrames: Int
    }

    /// The figures over the second before `now`; nil before two frames.
    public func summary(at now: Double) -> Summary? {
        var times: [Double] = []
        var lateCount = 0
        var first = Double.infinity, last = -Double.infinity
        for offset in 0 ..< count {
            let index = (next - 1 - offset + Self.capacity) % Self.capacity
            guard now - starts[index] <= Self.window else { break }
            times.append(durations[index])
            if late[index] { lateCount += 1 }
            first = min(first, starts[index])
            last = max(last, starts[index])
        }
        guard times.count >= 2, last > first else { return nil }
        times.sort()
        func quantile(_ q: Double) -> Double { times[min(times.count - 1, Int((Double(times.count - 1) * q).rounded()))] }
        return Summary(framesPerSecond: Double(times.count - 1) / (last - first), medianFrameTime: quantile(0.5),
                       p90FrameTime: quantile(0.9), lateFrames: lateCount)
    }
}
