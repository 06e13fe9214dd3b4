import DecibarCore

/// How a window (or an offline render) looks and behaves: what `live`, `play` and `render` share.
/// The command line fills it in; every value has the default a user gets without options (the
/// settings table's).
public struct DisplaySettings: Sendable {
    private static let rows = ConfigSchema.display

    /// The settings it was read from: a mode reads its own rows here (its settings group).
    public var configuration = Configuration()

    /// A mode's own setting, from `configuration`.
    public subscript<Value>(setting: Setting<Value>) -> Value { configuration[setting] }

    public var mode = Self.rows.mode.defaultValue
    /// Bars to draw; nil means 48, or as many as fit with `barWidth`.
    public var bars = Self.rows.bars.defaultValue
    public var theme = Self.rows.theme.defaultValue
    public var barWidth = Self.rows.barWidth.defaultValue
    public var barSpacing = Self.rows.barSpacing.defaultValue
    public var orientation = Self.rows.orientation.defaultValue
    /// Side by side or around a circle, and the circle's shape.
    public var arrangement = Self.rows.layout.defaultValue
    public var radialLayout = RadialLayout(innerRadius: Self.rows.innerRadius.defaultValue, gap: Self.rows.radialGap.defaultValue,
                                           rotation: Self.rows.rotation.defaultValue)
    public var background = Self.rows.background.defaultValue
    public var borderless = Self.rows.borderless.defaultValue
    /// Where the window lives on the desktop, on which monitor, and where on it.
    public var layer = Self.rows.layer.defaultValue
    public var monitor: String? = nil
    public var placement = LayerPlacement(anchor: Self.rows.anchor.defaultValue, thickness: Self.rows.stripHeight.defaultValue,
                                          margin: Self.rows.margin.defaultValue)
    public var caps = Self.rows.caps.defaultValue
    /// Bars lift on each beat.
    public var beatAccent = Self.rows.beatAccent.defaultValue
    /// How long caps (and the meter's hold line) hold, in ms.
    public var hold = Self.rows.hold.defaultValue
    /// How fast they fall after holding, in dB/s.
    public var fall = Float(Self.rows.fall.defaultValue)
    public var shader = Self.rows.shader.defaultValue
    public var shaderDirectory = Self.rows.shaderDirectory.defaultValue
    public var size = Self.rows.size.defaultValue
    public var fullscreen = Self.rows.fullscreen.defaultValue
    /// Frames per second of the window; nil: the display's refresh rate.
    public var fps = Self.rows.fps.defaultValue
    /// Rise and fall time constants of the bars in ms; nil means the seed's 158 ms.
    public var attack = Self.rows.attack.defaultValue
    public var release = Self.rows.release.defaultValue
    /// The level drawn as an empty bar, in dBFS.
    public var floor = Float(Self.rows.floor.defaultValue)
    /// The gain on bars and spectrum: automatic unless fixed.
    public var sensitivity = Self.rows.sensitivity.defaultValue
    public var exitAfter: Double?
    public var screenshot: String?
    public var record: String?
    public var recordFPS = 30
    /// One line per frame for the latency benchmarks.
    public var frameLog: String?

    public init() {}

    var smoothing: SmoothingTimes {
        SmoothingTimes(attack: attack.map { $0 / 1000 } ?? SmoothingTimes.seedTimeConstant,
                       release: release.map { $0 / 1000 } ?? SmoothingTimes.seedTimeConstant)
    }

    var levelScale: LevelScale { LevelScale(floorDB: floor, ceilingDB: 0) }

    var barTheme: BarTheme { BarTheme.preset(named: theme) ?? .default }

    /// Bar geometry from the orientation, bar width and spacing.
    var barLayout: BarLayout {
        var layout = BarLayout()
        layout.orientation = orientation
        if let barWidth { layout.fixedWidth = (barWidth, barSpacing ?? Swift.max(1, barWidth / 3)) }
        return layout
    }
}
