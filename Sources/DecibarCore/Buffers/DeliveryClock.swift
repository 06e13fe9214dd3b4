/// Stamps a capture stream's deliveries on the sample clock instead of by their arrival.
///
/// A delivery can arrive late (the reader was busy, the server batched it) but never before its
/// last frame was captured, so `arrival - position / rate` has a floor: the stream's true start,
/// plus the fixed part of the transport. The lowest value seen lately is that floor, and every
/// delivery is stamped from it, so one that was late by 20 ms is stamped where it belongs.
///
/// The floor is the lowest over the last few seconds, kept in short windows, so the sound card's
/// drift against the host clock moves it along. When the stream stops and resumes (a suspended
/// output, a server that skipped), every delivery comes later than the floor: once a whole window
/// has, the floor follows them at once.
public struct DeliveryClock: Sendable {
    /// How long one window lasts, in seconds of arrivals.
    public static let windowDuration = 0.5
    /// How many windows the floor is the lowest of.
    public static let windowCount = 8
    /// A window whose every delivery came this much later than the floor means time jumped.
    public static let jumpTolerance = 0.010

    private var windowMinimums: [Double] = []
    private var current = Double.infinity
    private var windowStart: Double?

    public init() {
        windowMinimums.reserveCapacity(Self.windowCount)
    }

    /// Forgets everything (a new stream).
    public mutating func reset() {
        windowMinimums.removeAll(keepingCapacity: true)
        current = .infinity
        windowStart = nil
        floor = nil
    }

    /// When the delivery's last frame was captured, on the host clock.
    /// - Parameters:
    ///   - arrival: when the delivery arrived (host clock, seconds).
    ///   - endFrame: the stream position just after its last frame.
    public mutating func stamp(arrival: Double, endFrame: Int64, sampleRate: Int) -> Double {
        let offset = arrival - Double(endFrame) / Double(sampleRate)
        if let start = windowStart {
            if arrival - start >= Self.windowDuration {
                closeWindow()
                windowStart = arrival
            }
        } else {
            windowStart = arrival
        }
        current = min(current, offset)
        let floor = min(current, windowMinimums.min() ?? .infinity)
        self.floor = floor
        return floor + Double(endFrame) / Double(sampleRate)
    }

    /// Stamps are `floor + position / rate`; nil before the first delivery.
    public private(set) var floor: Double?

    private mutating func closeWindow() {
        let previousFloor = windowMinimums.min() ?? .infinity
        if current > previousFloor + Self.jumpTolerance {
            // Every delivery of a whole window came late: the stream's time moved, follow it.
            windowMinimums.removeAll(keepingCapacity: true)
        }
        if windowMinimums.count == Self.windowCount { windowMinimums.removeFirst() }
        windowMinimums.append(current)
        current = .infinity
    }
}
