/// Where bars go on a canvas: pure geometry, shared by the renderer and the tests that read pixels back.
///
/// Bars sit in equal slots across the width (or, with a fixed bar width and spacing, in a group
/// centerd on the canvas); they grow up and down from the middle, up from the bottom or down from
/// the top. All edges are rounded to whole pixels so a bar's drawn height is exact.
public struct BarLayout: Sendable, Equatable {
    /// Where bars grow from.
    public var orientation: BarOrientation = .center
    /// Fixed bar width and gap in pixels; nil spreads the bars over the width.
    public var fixedWidth: (bar: Int, spacing: Int)? {
        get { fixedBarWidth.map { ($0, fixedBarSpacing) } }
        set {
            fixedBarWidth = newValue?.bar
            fixedBarSpacing = newValue?.spacing ?? 0
        }
    }
    private var fixedBarWidth: Int?
    private var fixedBarSpacing = 0

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

    /// How many bars of a fixed width and spacing fit across a canvas `width` pixels wide.
    public func fittingCount(canvasWidth width: Int) -> Int? {
        guard let bar = fixedBarWidth else { return nil }
        let usable = Double(width) * (1 - 2 * horizontalMarginRatio)
        return Swift.max(1, Int((usable + Double(fixedBarSpacing)) / Double(bar + fixedBarSpacing)))
    }

    /// The line bars grow from and how far their tips can reach from it, in canvas pixels; the
    /// gradient runs along it.
    public func growthAxis(canvasHeight height: Int) -> (baseline: Double, reach: Double) {
        let margin = Double(height - maximumHeight(canvasHeight: height)) / 2
        switch orientation {
        case .center: return (Double(height) / 2, Double(height) / 2)
        case .bottom: return (Double(height) - margin, Double(height) - 2 * margin)
        case .top: return (margin, Double(height) - 2 * margin)
        }
    }

    /// One rectangle per value, left to right, on a `width`×`height` pixel canvas.
    public func rects(for values: [Float], width: Int, height: Int) -> [PixelRect] {
        var rects: [PixelRect] = []
        self.rects(for: values, width: width, height: height, into: &rects)
        return rects
    }

    /// The same into `rects`, whose storage is reused (a display frame allocates nothing).
    public func rects(for values: [Float], width: Int, height: Int, into rects: inout [PixelRect]) {
        rects.removeAll(keepingCapacity: true)
        guard !values.isEmpty, width > 0, height > 0 else { return }
        let tallest = maximumHeight(canvasHeight: height)
        let verticalMargin = (height - tallest) / 2
        func top(ofBarHeight barHeight: Int) -> Int {
            switch orientation {
            case .center: (height - barHeight) / 2
            case .bottom: height - verticalMargin - barHeight
            case .top: verticalMargin
            }
        }
        if let bar = fixedBarWidth {
            let total = values.count * bar + (values.count - 1) * fixedBarSpacing
            let start = (width - total) / 2
            for (index, value) in values.enumerated() {
                let barHeight = barHeight(value: value, canvasHeight: height)
                rects.append(PixelRect(x: start + index * (bar + fixedBarSpacing), y: top(ofBarHeight: barHeight),
                                       width: bar, height: barHeight))
            }
            return
        }
        let margin = Double(width) * horizontalMarginRatio
        let slot = (Double(width) - 2 * margin) / Double(values.count)
        let gap = slot * (1 - fillRatio)
        for (index, value) in values.enumerated() {
            let left = Int((margin + Double(index) * slot + gap / 2).rounded())
            let right = Swift.max(left + 1, Int((margin + Double(index + 1) * slot - gap / 2).rounded()))
            let barHeight = barHeight(value: value, canvasHeight: height)
            rects.append(PixelRect(x: left, y: top(ofBarHeight: barHeight), width: right - left, height: barHeight))
        }
    }
}
