/// What the pictures are asked to show, from the display settings: bar count and layout,
/// smoothing, scales, caps and the beat accent, which every bar picture shares. A mode's own
/// settings it reads from `configuration` (its group's rows).
public struct VisualSettings: Sendable {
    /// Bars to draw; nil: as many as fit `layout`'s fixed width, else `defaultBarCount`.
    public var bars: Int?
    public var layout = BarLayout()
    public var smoothing = SmoothingTimes.default
    public var levelScale = LevelScale(floorDB: -60, ceilingDB: 0)
    public var caps = false
    /// Bars lift on each beat (`BarField.values` then include the lift).
    public var beatAccent = false
    /// Caps' (and the meter's hold line's) hold, in seconds, then fall, in dB/s.
    public var holdTime = 1.0
    public var fallRate: Float = LevelMeter.defaultHoldFallRate
    public var sensitivity = Sensitivity.automatic
    /// The settings in force, where a mode finds its own.
    public var configuration = Configuration()

    public static let defaultBarCount = 48

    public init() {}

    /// How many bars a canvas `width` pixels wide shows.
    public func barCount(canvasWidth width: Int) -> Int {
        bars ?? layout.fittingCount(canvasWidth: width) ?? Self.defaultBarCount
    }
}
