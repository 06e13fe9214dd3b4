/// The shapes of a level meter on a canvas, for every renderer that draws one (the window's
/// OpenGL, the web page's canvas): the scale's ticks, each channel's slot, peak bar and clip lamp,
/// the loudness bars and target marks under the bars; the RMS bars themselves (drawn with the
/// theme's gradient from `axis`); the hold caps over them. Texts stay with each renderer, which
/// measures its own glyphs. Rebuilt in place every frame: nothing allocated once it has grown.
public struct MeterPicture: Sendable {
    public private(set) var under: [(rect: PixelRect, color: Color)] = []
    public private(set) var bars: [PixelRect] = []
    public private(set) var over: [(rect: PixelRect, color: Color)] = []
    /// Where the RMS bars grow from, and how far they can reach (for the gradient).
    public private(set) var axis: (baseline: Double, reach: Double) = (0, 1)

    public static let tickColor = Color(red: 0.85, green: 0.87, blue: 0.93, alpha: 0.25)
    public static let capColor = Color(red: 1, green: 1, blue: 1, alpha: 0.85)
    public static let labelColor = Color(red: 0.85, green: 0.87, blue: 0.93, alpha: 0.85)
    public static let loudnessColor = Color(hex: 0x5EC8F2)
    public static let targetColor = Color(hex: 0xFFC042)
    static let clipColor = Color(hex: 0xFF2A2A)
    static let lampOffColor = Color(hex: 0x4A1414)

    public init() {}

    /// Lays out the meter for `geometry` from the meter's readings and the loudness (nil until measured).
    public mutating func build(_ geometry: MeterLayout, meter: LevelMeter, loudness: LoudnessReading?,
                               targets: [Double], theme: BarTheme, floorDB: Float) {
        under.removeAll(keepingCapacity: true)
        bars.removeAll(keepingCapacity: true)
        over.removeAll(keepingCapacity: true)
        for level in geometry.visibleTicks {
            under.append((PixelRect(x: geometry.labelWidth, y: geometry.y(forDB: level), width: geometry.width - geometry.labelWidth - 4, height: 1),
                          Self.tickColor))
        }
        for channel in 0 ..< geometry.channelCount {
            let reading = meter.reading(channel: channel)
            under.append((geometry.barSlot(channel: channel), theme.center.withAlpha(0.12)))
            under.append((geometry.bar(channel: channel, level: reading.peakDB), theme.tip.withAlpha(0.35)))
            bars.append(geometry.bar(channel: channel, level: reading.rmsDB))
            under.append((geometry.lamp(channel: channel), reading.isClipping ? Self.clipColor : Self.lampOffColor))
            if reading.holdDB > floorDB { over.append((geometry.cap(channel: channel, level: reading.holdDB), Self.capColor)) }
        }
        for index in 0 ..< geometry.loudnessBarCount {
            let value = index == 0 ? loudness?.momentaryLUFS : loudness?.shortTermLUFS
            let slot = geometry.loudnessSlot(index)
            under.append((slot, Self.loudnessColor.withAlpha(0.12)))
            if let value {
                let top = geometry.y(forDB: Float(value))
                under.append((PixelRect(x: slot.x, y: top, width: slot.width, height: geometry.scaleBottom - top), Self.loudnessColor))
            }
        }
        if geometry.loudnessBarCount >= 2 {
            let first = geometry.loudnessSlot(0), second = geometry.loudnessSlot(1)
            for target in targets {
                under.append((PixelRect(x: first.x - 4, y: geometry.y(forDB: Float(target)) - 1, width: second.maxX - first.x + 8, height: 2),
                              Self.targetColor))
            }
        }
        axis = (Double(geometry.scaleBottom), Double(geometry.scaleBottom - geometry.scaleTop))
    }
}
