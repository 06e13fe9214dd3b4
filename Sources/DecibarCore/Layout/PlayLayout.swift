/// Where things go in the player window: bars above, the waveform scrubber and its labels below.
public struct PlayLayout: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// The bars' area: full width, from the top.
    public let barsHeight: Int
    /// The scrubber's track, in pixels from the top-left corner.
    public let scrubberLeft: Int
    public let scrubberTop: Int
    public let scrubberWidth: Int
    public let scrubberHeight: Int
    /// Baseline row for the time labels, under the scrubber.
    public let labelTop: Int
    /// Pixel size for label text.
    public let labelSize: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        labelSize = Swift.max(12, height / 40)
        let margin = Swift.max(8, width / 40)
        let scrubber = Swift.max(24, height * 22 / 100)
        barsHeight = height - scrubber - labelSize * 2 - margin
        scrubberLeft = margin
        scrubberWidth = Swift.max(1, width - 2 * margin)
        scrubberTop = barsHeight + margin / 2
        scrubberHeight = scrubber
        labelTop = scrubberTop + scrubber + labelSize / 3
    }

    public func scrubberGeometry(duration: Double) -> ScrubberGeometry {
        ScrubberGeometry(left: Double(scrubberLeft), width: Double(scrubberWidth), duration: duration)
    }

    /// Whether a point (pixels, top-left origin) is on the scrubber (its labels included).
    public func isOnScrubber(x: Double, y: Double) -> Bool {
        x >= Double(scrubberLeft) && x < Double(scrubberLeft + scrubberWidth)
            && y >= Double(scrubberTop) && y < Double(labelTop + labelSize)
    }

    /// The mirrored column rectangles of the scrubber, one per column height (0...1), and each
    /// column's time span start (to color played and unplayed parts).
    public func scrubberColumns(heights: [Float], barWidth: Int, spacing: Int) -> [PixelRect] {
        var rects: [PixelRect] = []
        scrubberColumns(heights: heights, barWidth: barWidth, spacing: spacing, into: &rects)
        return rects
    }

    /// The same into `rects`, whose storage is reused (a display frame allocates nothing).
    public func scrubberColumns(heights: [Float], barWidth: Int, spacing: Int, into rects: inout [PixelRect]) {
        rects.removeAll(keepingCapacity: true)
        let center = scrubberTop + scrubberHeight / 2
        let half = scrubberHeight / 2
        for (index, height) in heights.enumerated() {
            let extent = Swift.max(1, Int((Double(Swift.min(1, Swift.max(0, height))) * Double(half)).rounded()))
            rects.append(PixelRect(x: scrubberLeft + index * (barWidth + spacing), y: center - extent,
                                   width: barWidth, height: extent * 2))
        }
    }
}
