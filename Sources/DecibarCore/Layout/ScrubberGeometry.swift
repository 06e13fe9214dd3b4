/// Where time sits on the scrubber: pure mapping between seconds and pixels, and the column grid.
/// The scrubber shows `start` to `start + span` seconds of the track: all of it unless zoomed.
public struct ScrubberGeometry: Sendable, Equatable {
    /// Left edge of the track in pixels.
    public var left: Double
    /// Width of the track in pixels.
    public var width: Double
    /// Length of the track in seconds.
    public var duration: Double
    /// The first second shown.
    public var start: Double
    /// Seconds shown.
    public var span: Double

    /// The whole track.
    public init(left: Double, width: Double, duration: Double) {
        self.init(left: left, width: width, duration: duration, start: 0, span: duration)
    }

    /// The stretch `zoom` shows.
    public init(left: Double, width: Double, zoom: ScrubberZoom) {
        self.init(left: left, width: width, duration: zoom.duration, start: zoom.start, span: zoom.span)
    }

    private init(left: Double, width: Double, duration: Double, start: Double, span: Double) {
        self.left = left
        self.width = Swift.max(1, width)
        self.duration = Swift.max(0, duration)
        self.start = Swift.max(0, start)
        self.span = Swift.max(0, span)
    }

    /// The x of `time`, clamped to the track.
    public func x(forTime time: Double) -> Double {
        guard span > 0 else { return left }
        return left + Swift.min(1, Swift.max(0, (time - start) / span)) * width
    }

    /// The time under `x`, clamped to the track (a drag past either edge pins to the start or end).
    public func time(forX x: Double) -> Double {
        start + Swift.min(1, Swift.max(0, (x - left) / width)) * span
    }

    /// How many bars of `barWidth` with `spacing` between them fit: `(width + spacing) / (barWidth + spacing)`.
    public func columnCount(barWidth: Int, spacing: Int) -> Int {
        Swift.max(1, (Int(width) + spacing) / Swift.max(1, barWidth + spacing))
    }
}
