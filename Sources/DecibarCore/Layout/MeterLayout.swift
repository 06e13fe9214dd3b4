/// Where a level meter goes on a canvas: one vertical bar per channel, a dB scale on the left with
/// tick labels, and a clip lamp above each bar. The scale is linear in dB from `floorDB` (bottom)
/// to 0 dBFS (top).
public struct MeterLayout: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let channelCount: Int
    public let floorDB: Float
    /// Top and bottom of the scale in canvas pixels (0 dBFS at `scaleTop`).
    public let scaleTop: Int
    public let scaleBottom: Int
    /// Room for the tick labels, left of the bars.
    public let labelWidth: Int
    public let lampHeight: Int

    /// Tick marks every few dB, labelled.
    public static let ticks: [Float] = [0, -3, -6, -10, -15, -20, -30, -40, -50, -60, -70, -80, -90]

    public init(width: Int, height: Int, channelCount: Int, floorDB: Float = -70) {
        self.width = width
        self.height = height
        self.channelCount = Swift.max(1, channelCount)
        self.floorDB = floorDB
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

    /// The full-height slot of channel `channel`'s bar. Bars are at most a sixth of the width, and
    /// the group sits in the middle of the space right of the labels.
    public func barSlot(channel: Int) -> PixelRect {
        let left = labelWidth + Swift.max(8, width / 40)
        let right = width - Swift.max(8, width / 40)
        let slot = Double(right - left) / Double(channelCount)
        let barWidth = Swift.max(1, Int(Swift.min(slot * 0.8, Double(width) / 6).rounded()))
        let gap = Swift.max(8, barWidth / 4)
        let group = channelCount * barWidth + (channelCount - 1) * gap
        let x = left + (right - left - group) / 2 + channel * (barWidth + gap)
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

    public func lamp(channel: Int) -> PixelRect {
        let slot = barSlot(channel: channel)
        return PixelRect(x: slot.x, y: scaleTop - lampHeight - Swift.max(4, lampHeight / 2), width: slot.width, height: lampHeight)
    }

    /// The ticks that fall on this scale (a slice of `ticks`, which run from 0 dB down: no copy).
    public var visibleTicks: ArraySlice<Float> { Self.ticks.prefix { $0 >= floorDB } }
}
