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
    /// The minimap (the whole track, with the zoomed scrubber's stretch marked) over the
    /// scrubber, as wide; 0 high when not shown.
    public let minimapTop: Int
    public let minimapHeight: Int

    /// With `showsMinimap` (a zoomed scrubber) the minimap takes its room from the bars: the
    /// scrubber stays where it is.
    /// `scrubberPercent` of the height goes to the scrubber (a composed video's is slimmer).
    public init(width: Int, height: Int, showsMinimap: Bool = false, scrubberPercent: Int = 22) {
        self.width = width
        self.height = height
        labelSize = Swift.max(12, height / 40)
        let margin = Swift.max(8, width / 40)
        let scrubber = Swift.max(24, height * scrubberPercent / 100)
        let barsBand = height - scrubber - labelSize * 2 - margin
        scrubberLeft = margin
        scrubberWidth = Swift.max(1, width - 2 * margin)
        scrubberTop = barsBand + margin / 2
        scrubberHeight = scrubber
        labelTop = scrubberTop + scrubber + labelSize / 3
        minimapHeight = showsMinimap ? Swift.max(10, scrubber / 4) : 0
        minimapTop = scrubberTop - minimapHeight - margin / 2
        barsHeight = showsMinimap ? Swift.max(0, minimapTop - margin / 2) : barsBand
    }

    public func scrubberGeometry(duration: Double) -> ScrubberGeometry {
        ScrubberGeometry(left: Double(scrubberLeft), width: Double(scrubberWidth), duration: duration)
    }

    /// The scrubber showing the stretch `zoom` holds.
    public func scrubberGeometry(zoom: ScrubberZoom) -> ScrubberGeometry {
        ScrubberGeometry(left: Double(scrubberLeft), width: Double(scrubberWidth), zoom: zoom)
    }

    /// Whether a point is on the minimap (when it is shown).
    public func isOnMinimap(x: Double, y: Double) -> Bool {
        minimapHeight > 0 && x >= Double(scrubberLeft) && x < Double(scrubberLeft + scrubberWidth)
            && y >= Double(minimapTop) && y < Double(minimapTop + minimapHeight)
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
        columns(heights: heights, barWidth: barWidth, spacing: spacing, top: scrubberTop, height: scrubberHeight, into: &rects)
    }

    /// The minimap's columns (the whole track), as the scrubber's but in the minimap's strip.
    public func minimapColumns(heights: [Float], barWidth: Int, spacing: Int, into rects: inout [PixelRect]) {
        columns(heights: heights, barWidth: barWidth, spacing: spacing, top: minimapTop, height: minimapHeight, into: &rects)
    }

    private func columns(heights: [Float], barWidth: Int, spacing: Int, top: Int, height: Int, into rects: inout [PixelRect]) {
        rects.removeAll(keepingCapacity: true)
        let center = top + height / 2
        let half = height / 2
        for (index, height) in heights.enumerated() {
            let extent = Swift.max(1, Int((Double(Swift.min(1, Swift.max(0, height))) * Double(half)).rounded()))
            rects.append(PixelRect(x: scrubberLeft + index * (barWidth + spacing), y: center - extent,
                                   width: barWidth, height: extent * 2))
        }
    }
}
