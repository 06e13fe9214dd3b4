/// Where a level meter goes on a canvas: one vertical bar per channel, then the loudness bars
/// (momentary and short-term), a dB scale on the left with tick labels, and a clip lamp above each
/// channel's bar. The scale is linear in dB from `floorDB` (bottom) to 0 (top).
public struct MeterLayout: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let channelCount: Int
    /// Bars right of the channels' (loudness).
    public let loudnessBarCount: Int
    public let floorDB: Float
    /// Top and bottom of the scale in canvas pixels (0 dBFS at `scaleTop`).
    public let scaleTop: Int
    public let scaleBottom: Int
    /// Room for the tick labels, left of the bars.
    public let labelWidth: Int
    public let lampHeight: Int
    /// Tick marks every few dB, labelled, from the top down.
    public let ticks: [Float]

    public init(width: Int, height: Int, channelCount: Int, loudnessBarCount: Int = 0, scale: MeterScale = .dbfs) {
        self.width = width
        self.height = height
        self.channelCount = Swift.max(1, channelCount)
        self.loudnessBarCount = Swift.max(0, loudnessBarCount)
        floorDB = scale.floorDB
        ticks = scale.ticks
        let margin = Swift.max(8, height / 20)
        lampHeight = Swift.max(6, height / 40)
        scaleTop = margin + lampHeight + margin / 2
        scaleBottom = Swift.max(scaleTop + 1, height - margin)
        labelWidth = Swift.max(40, width / 16)
    }

    /// The canvas y of a level; levels below the floor sit at the bottom, above 0 dB at the top.
    public func y(forDB level: Float) -> Int {
        let clamped = Swift.min(0, Swift.max(floorDB, level.isNaN ? floorDB : level))
        let fraction = Double(clamped / floorDB)
        return scaleTop + Int((fraction * Double(scaleBottom - scaleTop)).rounded())
    }

    /// The full-height slot of channel `channel`'s bar (channels first, then the loudness bars).
    /// Bars are at most a sixth of the width, and the group sits in the middle of the space right
    /// of the labels; the loudness bars sit one gap further right.
    public func barSlot(channel: Int) -> PixelRect {
        let left = labelWidth + Swift.max(8, width / 40)
        let right = width - Swift.max(8, width / 40)
        let bars = channelCount + loudnessBarCount
        let slot = Double(right - left) / Double(bars + (loudnessBarCount > 0 ? 1 : 0))
        let barWidth = Swift.max(1, Int(Swift.min(slot * 0.8, Double(width) / 6).rounded()))
        let gap = Swift.max(8, barWidth / 4)
        let separation = loudnessBarCount > 0 ? barWidth / 2 : 0
        let group = bars * barWidth + (bars - 1) * gap + separation
        let x = left + (right - left - group) / 2 + channel * (barWidth + gap) + (channel >= channelCount ? separation : 0)
        return PixelRect(x: x, y: scaleTop, width: barWidth, height: scaleBottom - scaleTop)
    }

    /// The part of a channel's slot filled up to `level`.
    public func bar(channel: Int, level: Float) -> PixelRect {
        let slot = barSlot(channel: channel)
        let top = y(forDB: level)
        return PixelRect(x: slot.x, y: top, width: slot.width, height: scaleBottom - top)
    }

    /// A thin cap across the channel's slot at `level`.
    public func cap(channel: Int, level: Float, thickness: Int = 3) -> PixelRect {
        let slot = barSlot(channel: channel)
        return PixelRect(x: slot.x, y: Swift.max(scaleTop, y(forDB: level) - thickness / 2), width: slot.width, height: thickness)
    }

    /// The slot of loudness bar `index` (0 momentary, 1 short-term).
    public func loudnessSlot(_ index: Int) -> PixelRect { barSlot(channel: channelCount + index) }

    public func lamp(channel: Int) -> PixelRect {
        let slot = barSlot(channel: channel)
        return PixelRect(x: slot.x, y: scaleTop - lampHeight - Swift.max(4, lampHeight / 2), width: slot.width, height: lampHeight)
    }

    /// The ticks that fall on this scale (a slice of `ticks`, which run from 0 dB down: no copy).
    public var visibleTicks: ArraySlice<Float> { ticks.prefix { $0 >= floorDB } }
}
