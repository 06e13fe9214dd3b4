/// Where a spectrogram's parts go in a picture: the plot takes the whole height (or, vertical,
/// the whole width), the frequency labels beside it (below it) with a tick at each, and the dB
/// legend, a strip of the color map, at the right.
public struct SpectrogramLayout: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let vertical: Bool
    public let plot: PixelRect
    public let legend: PixelRect
    /// The frequency axis's room: left of the plot (across, below it).
    public let labelRoom: Int
    public let tickLength: Int
    public let axis: FrequencyAxis

    /// - Parameters: `textWidth` is the widest label's width, `textHeight` a line's height.
    public init(width: Int, height: Int, vertical: Bool = false, textWidth: Int, textHeight: Int, legendTextWidth: Int,
                axis: FrequencyAxis = FrequencyAxis()) {
        self.width = width
        self.height = height
        self.vertical = vertical
        self.axis = axis
        tickLength = max(3, textHeight / 3)
        let legendWidth = max(6, textHeight / 2)
        let legendRoom = legendWidth + 6 + legendTextWidth + 4
        if vertical {
            labelRoom = textHeight + tickLength + 4
            plot = PixelRect(x: 0, y: 0, width: max(1, width - legendRoom), height: max(1, height - labelRoom))
        } else {
            labelRoom = textWidth + tickLength + 8
            plot = PixelRect(x: labelRoom, y: 0, width: max(1, width - labelRoom - legendRoom), height: height)
        }
        let legendHeight = max(1, plot.height - 2 * textHeight)
        legend = PixelRect(x: plot.x + plot.width + 6, y: plot.y + (plot.height - legendHeight) / 2, width: legendWidth, height: legendHeight)
    }

    /// The pixel (y, or across x when vertical) of a frequency on the plot's axis.
    public func position(ofHertz hertz: Double) -> Int {
        let fraction = axis.fraction(ofHertz: hertz)
        if vertical { return plot.x + Int((fraction * Double(plot.width - 1)).rounded()) }
        return plot.y + Int(((1 - fraction) * Double(plot.height - 1)).rounded())
    }

    /// The tick of each labeled frequency: its text, the tick's rectangle and where its text goes
    /// (left edge and top), given each text's size. Labels that would overlap the one before are left out.
    public func ticks(textSize: (String) -> (width: Int, height: Int)) -> [(text: String, tick: PixelRect, textX: Int, textY: Int)] {
        var result: [(String, PixelRect, Int, Int)] = []
        var lastEnd = Int.min
        for (hertz, text) in FrequencyAxis.ticks {
            let at = position(ofHertz: hertz)
            let size = textSize(text)
            if vertical {
                let tick = PixelRect(x: at, y: plot.y + plot.height, width: 1, height: tickLength)
                let x = min(max(0, at - size.width / 2), width - size.width)
                guard x > lastEnd + 4 else { continue }
                lastEnd = x + size.width
                result.append((text, tick, x, plot.y + plot.height + tickLength + 2))
            } else {
                let tick = PixelRect(x: plot.x - tickLength, y: at, width: tickLength, height: 1)
                let y = min(max(0, at - size.height / 2), height - size.height)
                // From the bottom up: each label above the one before.
                guard lastEnd == Int.min || y + size.height + 2 <= lastEnd else { continue }
                lastEnd = y
                result.append((text, tick, plot.x - tickLength - 4 - size.width, y))
            }
        }
        return result
    }
}
