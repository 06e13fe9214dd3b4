/// Decides how long the frame loop sleeps so frames come at the display's rate, without busy waiting.
///
/// Vertical sync is trusted only once frames are seen to be throttled by it: Xvfb refuses vsync
/// and some drivers accept it without waiting, which would otherwise spin the CPU at hundreds of fps.
public struct FramePacer: Sendable {
    /// Seconds per frame at the display's refresh rate.
    public let period: Double
    public private(set) var isVSyncTrusted = false
    private var vsyncClaimed: Bool
    private var nextDeadline: Double?
    private var observedIntervals: [Double] = []
    private var previousFrameStart: Double?

    /// Frames observed before deciding whether vsync really throttles.
    public static let observationFrames = 30

    public init(refreshRate: Double?, vsyncClaimed: Bool) {
        let rate = refreshRate.flatMap { $0 >= 10 && $0 <= 1000 ? $0 : nil } ?? 60
        period = 1 / rate
        self.vsyncClaimed = vsyncClaimed
    }

    /// Call at the start of every frame with a monotonic time in seconds.
    public mutating func frameStarted(at now: Double) {
        defer { previousFrameStart = now }
        guard vsyncClaimed, !isVSyncTrusted, let previous = previousFrameStart else { return }
        observedIntervals.append(now - previous)
        guard observedIntervals.count >= Self.observationFrames else { return }
        let sorted = observedIntervals.sorted()
        let median = sorted[sorted.count / 2]
        // Throttled frames arrive about one period apart; unthrottled ones much faster.
        isVSyncTrusted = median >= period * 0.75
        if !isVSyncTrusted { vsyncClaimed = false }
        observedIntervals.removeAll()
    }

    /// Seconds to sleep after drawing a frame that finished at `now`; 0 when vsync paces us.
    public mutating func delayAfterFrame(finishedAt now: Double) -> Double {
        if isVSyncTrusted { return 0 }
        if vsyncClaimed && observedIntervals.count < Self.observationFrames {
            // Still finding out: pace at half the period so a real vsync shows through.
            return Swift.max(0, (previousFrameStart ?? now) + period * 0.5 - now)
        }
        var deadline = (nextDeadline ?? now) + period
        // After a stall, start afresh instead of rushing frames to catch up.
        if deadline < now { deadline = now + period }
        if deadline > now + period { deadline = now + period }
        nextDeadline = deadline
        return deadline - now
    }
}
