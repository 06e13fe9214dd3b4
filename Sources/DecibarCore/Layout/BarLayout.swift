/// Where bars go on a canvas: pure geometry, shared by the renderer and the tests that read pixels back.
///
/// Bars sit in equal slots across the width; each is centred vertically and grows up and down
/// from the middle. All edges are rounded to whole pixels so a bar's drawn height is exact.
public struct BarLayout: Sendable, Equatable {
    /// Share of a slot a bar fills; the rest is the gap between bars.
    public var fillRatio: Double
    /// Share of the canvas height kept free above and below the bars.
    public var verticalMarginRatio: Double
    /// Share of the canvas width kept free left and right.
    public var horizontalMarginRatio: Double
    /// Height, in pixels, of a bar at value 0, so that silence still shows where the bars are.
    public var minimumHeight: Int

    public init(fillRatio: Double = 0.7, verticalMarginRatio: Double = 0.06,
                horizontalMarginRatio: Double = 0.02, minimumHeight: Int = 2) {
        self.fillRatio = fillRatio
        self.verticalMarginRatio = verticalMarginRatio
        self.horizontalMarginRatio = horizontalMarginRatio
        self.minimumHeight = minimumHeight
    }

    /// The tallest a bar can be on a canvas `height` pixels high.
    public func maximumHeight(canvasHeight height: Int) -> Int {
        Swift.max(1, height - 2 * Int((Double(height) * verticalMarginRatio).rounded()))
    }

    /// The height of a bar with `value` (0...1) on a canvas `height` pixels high.
    public func barHeight(value: Float, canvasHeight height: Int) -> Int {
        let tallest = maximumHeight(canvasHeight: height)
        let clamped = Double(Swift.min(1, Swift.max(0, value.isNaN ? 0 : value)))
        let floor = Swift.min(minimumHeight, tallest)
        return Swift.max(floor, Int((clamped * Double(tallest)).rounded()))
    }

    /// One rectangle per value, left to right, on a `width`×`height` pixel canvas.
    public func rects(for values: [Float], width: Int, height: Int) -> [PixelRect] {
        guard !values.isEmpty, width > 0, height > 0 else { return [] }
        let margin = Double(width) * horizontalMarginRatio
        let slot = (Double(width) - 2 * margin) / Double(values.count)
        let gap = slot * (1 - fillRatio)
        return values.enumerated().map { index, value in
            let left = Int((margin + Double(index) * slot + gap / 2).rounded())
            let right = Swift.max(left + 1, Int((margin + Double(index + 1) * slot - gap / 2).rounded()))
            let barHeight = barHeight(value: value, canvasHeight: height)
            let top = (height - barHeight) / 2
            return PixelRect(x: left, y: top, width: right - left, height: barHeight)
        }
    }
}
