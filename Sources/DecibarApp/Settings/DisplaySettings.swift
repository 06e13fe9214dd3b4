import DecibarCore

/// How a window (or an offline render) looks and behaves: what `live`, `play` and `render` share.
/// The command line fills it in; every value has the default a user gets without options (the
/// settings table's).
public struct DisplaySettings: Sendable {
    private typealias Key = ConfigSchema.Display

    public var mode = Key.mode.defaultValue
    /// Bars to draw; nil means 48, or as many as fit with `barWidth`.
    public var bars = Key.bars.defaultValue
    public var theme = Key.theme.defaultValue
    public var barWidth = Key.barWidth.defaultValue
    public var barSpacing = Key.barSpacing.defaultValue
    public var orientation = Key.orientation.defaultValue
    /// Side by side or around a circle, and the circle's shape.
    public var arrangement = Key.layout.defaultValue
    public var radialLayout = RadialLayout(innerRadius: Key.innerRadius.defaultValue, gap: Key.radialGap.defaultValue,
                                           rotation: Key.rotation.defaultValue)
    public var background = Key.background.defaultValue
    public var borderless = Key.borderless.defaultValue
    /// Where the window lives on the desktop, on which monitor, and where on it.
    public var layer = Key.layer.defaultValue
    public var monitor: String? = nil
    public var placement = LayerPlacement(anchor: Key.anchor.defaultValue, thickness: Key.stripHeight.defaultValue,
                                          margin: Key.margin.defaultValue)
    public var caps = Key.caps.defaultValue
    /// Bars lift on each beat.
    public var beatAccent = Key.beatAccent.defaultValue
    /// How long caps (and the meter's hold line) hold, in ms.
    public var hold = Key.hold.defaultValue
    /// How fast they fall after holding, in dB/s.
    public var fall = Float(Key.fall.defaultValue)
    public var ballistics = Key.ballistics.defaultValue
    public var spectrumFloor = Float(Key.spectrumFloor.defaultValue)
    public var lowsAtEdges = Key.lowsAtEdges.defaultValue
    /// Spectrogram: its colors, and the level of the first.
    public var colorMap = Key.colorMap.defaultValue
    public var spectrogramFloor = Float(Key.spectrogramFloor.defaultValue)
    /// Scope: the goniometer follows the music's level.
    public var scopeAutoGain = Key.scopeAutoGain.defaultValue
    public var shader = Key.shader.defaultValue
    public var shaderDirectory = Key.shaderDirectory.defaultValue
    /// Milkdrop: the preset to start with, the playlist's folders (empty: the default list), its
    /// order, how long each shows, and the seed of its random numbers.
    public var preset = Key.preset.defaultValue
    public var presetDirectories = Key.presetDirectories.defaultValue
    public var allPresets = Key.allPresets.defaultValue
    public var presetShuffle = Key.presetShuffle.defaultValue
    public var presetDuration = Key.presetDuration.defaultValue
    public var seed = Key.seed.defaultValue
    /// The fraction of the canvas Milkdrop draws at; nil: by the renderer (software or GPU).
    public var milkdropScale = Key.milkdropScale.defaultValue
    public var size = Key.size.defaultValue
    public var fullscreen = Key.fullscreen.defaultValue
    /// Frames per second of the window; nil: the display's refresh rate.
    public var fps = Key.fps.defaultValue
    /// Rise and fall time constants of the bars in ms; nil means the seed's 158 ms.
    public var attack = Key.attack.defaultValue
    public var release = Key.release.defaultValue
    /// The level drawn as an empty bar, in dBFS.
    public var floor = Float(Key.floor.defaultValue)
    /// The gain on bars and spectrum: automatic unless fixed.
    public var sensitivity = Key.sensitivity.defaultValue
    /// The meter's scale, and the loudness targets (LUFS) marked on it.
    public var meterScale = Key.meterScale.defaultValue
    public var loudnessTargets = Key.loudnessTargets.defaultValue
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
