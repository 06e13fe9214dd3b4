import DecibarCore

/// How a window (or an offline render) looks and behaves: what `live`, `play` and `render` share.
/// The command line fills it in; every value has the default a user gets without options.
public struct DisplaySettings: Sendable {
    public var mode: VisualMode = .bars
    /// Bars to draw; nil means 48, or as many as fit with `barWidth`.
    public var bars: Int?
    public var theme = "neon"
    public var barWidth: Int?
    public var barSpacing: Int?
    public var orientation: BarOrientation = .center
    public var background: BackgroundStyle = .opaque
    public var borderless = false
    public var caps = false
    /// How long caps (and the meter's hold line) hold, in ms.
    public var hold: Double = 1000
    /// How fast they fall after holding, in dB/s.
    public var fall: Float = LevelMeter.defaultHoldFallRate
    public var ballistics: MeterBallistics = .digital
    public var spectrumFloor: Float = -70
    public var lowsAtEdges = false
    public var shaderDirectory: String?
    public var size = WindowSize(width: 1280, height: 720)
    public var fullscreen = false
    /// Rise and fall time constants of the bars in ms; nil means the seed's 158 ms.
    public var attack: Double?
    public var release: Double?
    /// The level drawn as an empty bar, in dBFS.
    public var floor: Float = -60
    /// The gain on bars and spectrum: automatic unless fixed.
    public var sensitivity = Sensitivity.automatic
    /// The meter's scale, and the loudness targets (LUFS) marked on it.
    public var meterScale = MeterScale.dbfs
    public var loudnessTargets: [Double] = []
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
