/// Moves a costly picture's scale between 1 and `floor` so that drawing it fits its share of a
/// display refresh: down at once when the picture is over its budget, back up slowly when it is
/// well under, and not back to a scale that was too slow for `ceilingHold` (no flapping between two
/// steps). Pictures cost about their pixel count, so a change is the square root of the time
/// ratio. The scale moves in steps of `step`: the picture's framebuffer is made again only for a
/// change that shows. When even the floor is too slow, the frame pacer shows a part of the rate.
public struct DynamicScale: Sendable {
    /// The least scale: a quarter of the width and height (a sixteenth of the pixels).
    public static let floor = 0.25
    public static let step = 1.0 / 16
    /// The picture's share of a refresh: the rest is for scaling it up (5 ms of 16.7 at 1280x720
    /// on a software renderer), the scrubber, text and the swap.
    public static let budgetShare = 0.45
    /// Drawings this far under the budget raise the scale.
    public static let raiseShare = 0.6
    /// Drawings at one scale a decision reads (their 90th percentile): a third of a second at 60 Hz.
    public static let window = 20
    /// Seconds between a change and a rise: the picture settles before it grows again.
    public static let riseHold = 1.0
    /// Seconds a scale that was too slow stays out of reach.
    public static let ceilingHold = 10.0

    public private(set) var scale: Double
    private var drawings: [Double] = []
    private var sorted: [Double] = []
    private var changedAt = -Double.infinity
    /// The last scale found too slow, and when.
    private var ceiling: (scale: Double, at: Double)?

    public init(start: Double = 1) {
        scale = Self.quantized(start)
        drawings.reserveCapacity(Self.window)
        sorted.reserveCapacity(Self.window)
    }

    /// One drawing of the picture took `seconds`, at the current scale, on a display refreshed
    /// every `period` seconds. Returns whether the scale changed.
    @discardableResult
    public mutating func observe(drawing seconds: Double, period: Double, now: Double) -> Bool {
        guard seconds.isFinite, seconds >= 0, period > 0 else { return false }
        drawings.append(seconds)
        guard drawings.count >= Self.window else { return false }
        sorted.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: drawings)
        sorted.sort()
        drawings.removeAll(keepingCapacity: true)
        let typical = sorted[(sorted.count * 9) / 10]
        let budget = period * Self.budgetShare
        var wanted = scale
        if typical > budget {
            ceiling = (scale, now)
            wanted = max(Self.floor, scale * max(0.5, (budget * 0.9 / typical).squareRoot()))
        } else if typical < budget * Self.raiseShare, scale < 1, now - changedAt >= Self.riseHold {
            wanted = min(1, scale * min(1.25, (budget * 0.8 / max(typical, 1e-6)).squareRoot()))
            if let ceiling, now - ceiling.at < Self.ceilingHold { wanted = min(wanted, ceiling.scale - Self.step) }
        }
        let next = Self.quantized(wanted)
        guard next != scale else { return false }
        scale = next
        changedAt = now
        return true
    }

    /// Forgets the drawings (the picture changed: a new preset or shader costs otherwise).
    public mutating func restart() {
        drawings.removeAll(keepingCapacity: true)
    }

    private static func quantized(_ value: Double) -> Double {
        min(1, max(floor, (value / step).rounded(.down) * step))
    }
}
