import RealModule

/// The stretch of a file the scrubber shows: all of it at zoom 1, in down to about 10 ms a pixel.
/// Pure arithmetic on seconds; the scrubber's geometry maps this stretch onto its pixels.
public struct ScrubberZoom: Sendable, Equatable {
    /// How the view keeps the playhead in sight while playing.
    public enum Follow: String, Sendable, CaseIterable {
        /// The view jumps a page when the playhead leaves it (the playhead then at its left edge).
        case page
        /// The view slides with the playhead, which stays in the middle.
        case smooth
    }

    public private(set) var duration: Double
    /// The first second shown.
    public private(set) var start: Double
    /// Seconds shown.
    public private(set) var span: Double

    /// Finer than this, a pixel would hold less than one sample's worth at common rates for long.
    public static let finestSecondsPerPixel = 0.010

    public init(duration: Double) {
        self.duration = Swift.max(0, duration)
        start = 0
        span = self.duration
    }

    /// The last second shown.
    public var end: Double { start + span }
    /// 1 for the whole file, 8 for an eighth of it.
    public var factor: Double { span > 0 ? duration / span : 1 }
    public var isWhole: Bool { span >= duration }

    /// The largest zoom a scrubber `width` pixels wide allows on this file.
    public func maximumFactor(width: Double) -> Double {
        guard duration > 0 else { return 1 }
        return Swift.max(1, duration / (Swift.max(1, width) * Self.finestSecondsPerPixel))
    }

    /// Zooms to `factor` keeping `time` where it is on the scrubber (a wheel under the pointer), or
    /// in the middle when `keeping` is nil (`ctl zoom` around the playhead).
    public mutating func zoom(to factor: Double, around time: Double, keeping fraction: Double? = nil, width: Double) {
        guard duration > 0, factor.isFinite else { return }
        let clamped = Swift.min(maximumFactor(width: width), Swift.max(1, factor))
        let share = fraction ?? 0.5
        span = duration / clamped
        place(start: time - share * span)
    }

    /// Zooms by `ratio` (2 zooms in twice, 0.5 out) around `time`, which stays under the pointer.
    public mutating func zoom(by ratio: Double, around time: Double, width: Double) {
        guard ratio > 0 else { return }
        zoom(to: factor * ratio, around: time, keeping: self.fraction(of: time), width: width)
    }

    /// The zoom ratio of a turn of the wheel: two steps double it, two back halve it.
    public static func ratio(wheelSteps steps: Double) -> Double {
        steps.isFinite ? Double.pow(2, Swift.min(20, Swift.max(-20, steps)) / 2) : 1
    }

    /// Where `time` falls in the view: 0 at its start, 1 at its end (outside when not shown).
    public func fraction(of time: Double) -> Double {
        span > 0 ? (time - start) / span : 0
    }

    /// Moves the view to start at `start` (panned with the minimap), kept inside the file.
    public mutating func pan(to start: Double) {
        place(start: start)
    }

    /// Keeps the playhead in sight while playing.
    public mutating func follow(_ playhead: Double, mode: Follow) {
        guard !isWhole else { return }
        switch mode {
        case .smooth:
            place(start: playhead - span / 2)
        case .page:
            if playhead < start || playhead >= end { place(start: playhead) }
        }
    }

    /// A file whose length became known or changed (a stream downloading): the zoom is kept.
    public mutating func setDuration(_ duration: Double) {
        let factor = self.factor
        self.duration = Swift.max(0, duration)
        span = self.duration / factor
        place(start: start)
    }

    private mutating func place(start: Double) {
        self.start = Swift.min(Swift.max(0, duration - span), Swift.max(0, start.isFinite ? start : 0))
    }
}
