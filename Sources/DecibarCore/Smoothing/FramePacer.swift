/// Decides how long the frame loop sleeps so frames come at the display's rate, without busy waiting.
///
/// Vertical sync is trusted only once frames are seen to be throttled by it: Xvfb refuses vsync
/// and some drivers accept it without waiting, which would otherwise spin the CPU at hundreds of fps.
public struct FramePacer: Sendable {
    /// Seconds per frame at the display's refresh rate.
    public let period: Double
    public private(set) var isVSyncTrusted = false
    private var vsyncClaimed: Bool
    private var observedIntervals: [Double] = []
    private var previousFrameStart: Double?

    /// Frames observed before deciding whether vsync really throttles.
    public static let observationFrames = 30

    public init(refreshRate: Double?, vsyncClaimed: Bool) {
        let rate = refreshRate.flatMap { $0 >= 10 && $0 <= 1000 ? $0 : nil } ?? 60
        period = 1 / rate
        self.vsyncClaimed = vsyncClaimed
        recentDraws.reserveCapacity(Self.drawWindow)
        sortedDraws.reserveCapacity(Self.drawWindow)
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

    /// Whether frames are shown at slots this pacer keeps (no vsync to wait on): the frame loop then
    /// finishes drawing ahead of the slot and waits for it (`presentDelay`) before showing.
    public var pacesItself: Bool { !isVSyncTrusted && !(vsyncClaimed && observedIntervals.count < Self.observationFrames) }

    /// How long before its slot a frame starts: the longest drawing of the last `drawWindow`
    /// frames, less `allowedLateness`, so the frame is ready at its slot (the slowest up to that
    /// much after it) while the audio is read (at the start) as late as that allows. A slow frame
    /// raises it for a second and a half only.
    public var drawBudget: Double {
        let longest = sortedDraws.last ?? Self.assumedDraw
        return Swift.min(Swift.max(longest - Self.allowedLateness, Self.minimumBudget), period * 0.6)
    }
    /// How late the slowest recent drawing may show: well inside the 2 ms a frame may be off its
    /// slot, and every frame reads its audio that much later.
    public static let allowedLateness = 0.001
    /// The least time a frame starts before its slot (a scheduler's wake-up delay).
    public static let minimumBudget = 0.0005
    /// Frames whose drawing times make the budget: a second and a half at 60 Hz.
    public static let drawWindow = 90
    /// The drawing time assumed before any frame is drawn.
    public static let assumedDraw = 0.002
    /// The last `drawWindow` drawing times, oldest first, and the same sorted (kept in place: no
    /// allocation once full).
    private var recentDraws: [Double] = []
    private var sortedDraws: [Double] = []
    /// The slot the frame being drawn is for (nil before the first).
    private var slot: Double?

    /// Seconds to wait after a frame that started at `start` is drawn (and finished) at `now`,
    /// before showing it at its slot: 0 when late, the first frame, or when vsync paces us.
    public mutating func presentDelay(drawnAt now: Double, startedAt start: Double) -> Double {
        guard pacesItself else { return 0 }
        remember(drawing: Swift.max(0, now - start))
        guard let slot else { return 0 }
        return Swift.max(0, slot - now)
    }

    private mutating func remember(drawing: Double) {
        if recentDraws.count == Self.drawWindow {
            let oldest = recentDraws.removeFirst()
            if let index = sortedDraws.firstIndex(of: oldest) { sortedDraws.remove(at: index) }
        }
        recentDraws.append(drawing)
        sortedDraws.insert(drawing, at: sortedDraws.firstIndex { $0 > drawing } ?? sortedDraws.count)
    }

    /// Seconds to sleep after a frame was shown at `now`, until the next frame starts: its slot
    /// less the drawing budget. 0 when vsync paces us.
    public mutating func delayAfterFrame(finishedAt now: Double) -> Double {
        if isVSyncTrusted { return 0 }
        if vsyncClaimed && observedIntervals.count < Self.observationFrames {
            // Still finding out: pace at half the period so a real vsync shows through.
            return Swift.max(0, (previousFrameStart ?? now) + period * 0.5 - now)
        }
        let budget = drawBudget
        var next = (slot ?? now) + period
        // After a stall (or a rest), skip the slots there is no longer time to draw for, instead
        // of rushing frames to catch up, and stay on the same grid, as a display's refresh does:
        // a grid started afresh from a late frame would put every later frame off its slot.
        if next - budget * 0.5 < now { next += (((now - next + budget * 0.5) / period).rounded(.down) + 1) * period }
        // A clock step: the grid starts again from here.
        if next > now + period + budget { next = now + period }
        slot = next
        return Swift.max(0, next - budget - now)
    }
}
