/// Decides how long the frame loop sleeps so frames come at the display's rate, without busy waiting.
///
/// A picture whose frames take longer than a slot is shown at a steady divisor of the rate (60,
/// 30, 20, 15 a second at 60 Hz), each frame for the same number of slots: an even 30 looks
/// smoother than an uneven 40 whose frames show for one slot or two. The divisor goes up as soon
/// as the recent drawings need it and down once they fit a smaller one with room to spare, never
/// twice within a second.
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

    /// Frames are shown every `divisor` slots (1 while they draw in time; with a trusted vsync, always 1).
    public private(set) var divisor = 1
    /// Seconds from one frame shown to the next.
    public var interval: Double { period * Double(divisor) }
    /// The most slots a frame is shown for (15 a second at 60 Hz).
    public static let maximumDivisor = 4
    /// A divisor fits when the drawings (their 95th percentile) take at most this share of its
    /// interval, and is left for a smaller one only when they take less than `shrinkShare` of that
    /// one's: between the two the divisor stays, so it cannot flap.
    public static let fitShare = 0.9
    public static let shrinkShare = 0.7
    /// The least time between two changes of the divisor, and the drawings seen before the first.
    public static let divisorHold = 1.0
    public static let divisorObservations = 30
    private var divisorChangedAt = -Double.infinity

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
        // At the display's rate a frame starts at most 60 % of a slot ahead; a picture shown every
        // few slots is slow anyway, and may start up to its interval less a tenth of a slot ahead.
        let cap = divisor == 1 ? period * 0.6 : interval - period * 0.1
        return Swift.min(Swift.max(longest - Self.allowedLateness, Self.minimumBudget), cap)
    }

    /// When the frame being drawn (started after the last `delayAfterFrame`) is to be shown: its
    /// slot, or nil while vsync paces or before the first. Its audio is the audio heard then.
    public var upcomingSlot: Double? { pacesItself ? slot : nil }
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
    /// How long after its slot the last frame was shown (0 when on time).
    private var lateness = 0.0

    /// Seconds to wait after a frame that started at `start` is drawn (and finished) at `now`,
    /// before showing it at its slot: 0 when late, the first frame, or when vsync paces us.
    public mutating func presentDelay(drawnAt now: Double, startedAt start: Double) -> Double {
        guard pacesItself else { return 0 }
        remember(drawing: Swift.max(0, now - start))
        // (Judged by the divisor the frame was drawn for: at the display's rate the next slot
        // there is time for is the cadence already.)
        if let slot, divisor > 1 { lateness = Swift.max(0, now - slot) }
        chooseDivisor(at: now)
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

    /// Moves the divisor to what the recent drawings need (see `divisor`).
    private mutating func chooseDivisor(at now: Double) {
        guard sortedDraws.count >= Self.divisorObservations, now - divisorChangedAt >= Self.divisorHold else { return }
        let typical = sortedDraws[(sortedDraws.count * 19) / 20]
        let needed = Swift.min(Self.maximumDivisor, Swift.max(1, Int((typical / (period * Self.fitShare)).rounded(.up))))
        let shrinks = needed < divisor && typical < period * Double(divisor - 1) * Self.shrinkShare
        guard needed > divisor || shrinks else { return }
        divisor = needed
        divisorChangedAt = now
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
        let interval = self.interval
        var next = (slot ?? now) + interval
        // Shown every few slots, a frame more than half a slot late holds the screen from the slot
        // after its own: the next comes a whole interval after that one, so one frame is shown a
        // slot longer (5 4 4 at 15 a second), not one longer and the next shorter to keep the old
        // cadence (5 3 4).
        next += (lateness / period).rounded() * period
        lateness = 0
        // After a stall (or a rest), skip the slots there is no longer time to draw for, instead
        // of rushing frames to catch up, and stay on the same grid, as a display's refresh does:
        // a grid started afresh from a late frame would put every later frame off its slot.
        if next - budget * 0.5 < now { next += (((now - next + budget * 0.5) / interval).rounded(.down) + 1) * interval }
        // A clock step: the grid starts again from here.
        if next > now + interval + budget { next = now + interval }
        slot = next
        return Swift.max(0, next - budget - now)
    }
}
