/// Where time sits on the scrubber: pure mapping between seconds and pixels, and the column grid.
public struct ScrubberGeometry: Sendable, Equatable {
    /// Left edge of the track in pixels.
    public var left: Double
    /// Width of the track in pixels.
    public var width: Double
    /// Length of the track in seconds.
    public var duration: Double

    public init(left: Double, width: Double, duration: Double) {
        self.left = left
        self.width = Swift.max(1, width)
        self.duration = Swift.max(0, duration)
    }

    /// The x of `time`, clamped to the track.
    public func x(forTime time: Double) -> Double {
        guard duration > 0 else { return left }
        return left + Swift.min(1, Swift.max(0, time / duration)) * width
    }

    /// The time under `x`, clamped to the track (a drag past either edge pins to the start or end).
    public func time(forX x: Double) -> Double {
        Swift.min(1, Swift.max(0, (x - left) / width)) * duration
    }

    /// How many bars of `barWidth` with `spacing` between them fit: `(width + spacing) / (barWidth + spacing)`.
    public func columnCount(barWidth: Int, spacing: Int) -> Int {
        Swift.max(1, (Int(width) + spacing) / Swift.max(1, barWidth + spacing))
    }
}
