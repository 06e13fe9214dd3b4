import DecibarAudio
import DecibarCore
import DecibarRender

extension SpectrumAnalyzer: BandAnalyzer {}

/// What both windows (and the offline render) draw above everything else: level bars, a spectrum
/// or a meter, with caps, labels and the user's shaders. `update` moves the GL-free
/// `VisualizerState` on by the frame's audio and `dt`; `draw` puts it on screen.
///
/// A frame allocates nothing once running: bar rectangles, shapes and label texts live in storage
/// reused from frame to frame, and numbers are drawn from cached glyphs rather than new strings.
public final class Visualizer {
    let options: DisplaySettings
    let theme: BarTheme
    let layout: BarLayout
    public private(set) var state: VisualizerState

    let barRenderer: BarRenderer
    let rects: RectRenderer
    let labels: TextRenderer?
    let userShaders: UserShaders?
    let shaderPass: ShaderPassRenderer?
    let startTime: Double

    /// Storage the drawing reuses every frame.
    var barRects: [PixelRect] = []
    var capRects: [PixelRect] = []
    var shapes: [(PixelRect, Color)] = []
    var meterPicture = MeterPicture()
    var shaderValues: [Float] = []
    var textBytes: [UInt8] = []

    /// - Parameter deterministic: bit-identical output from run to run (offline renders): FFTW plans
    ///   are estimated, not timed.
    public init(options: DisplaySettings, shaders: ShaderLibrary, labelSize: Int, now: Double,
                deterministic: Bool = false) throws(RenderError) {
        self.options = options
        theme = options.barTheme
        layout = options.barLayout
        barRenderer = try BarRenderer(shaders: shaders)
        rects = try RectRenderer(shaders: shaders)
        labels = try? TextRenderer(shaders: shaders, pixelSize: labelSize)
        if let directory = options.shaderDirectory {
            let pass = try ShaderPassRenderer(shaders: shaders)
            shaderPass = pass
            userShaders = UserShaders(directory: directory, renderer: pass)
        } else {
            shaderPass = nil
            userShaders = nil
        }
        state = VisualizerState(settings: Self.stateSettings(options), mode: options.mode) { rate, bands in
            SpectrumAnalyzer(sampleRate: rate, bandCount: bands, channelCount: 2, measuredPlan: !deterministic)
        }
        startTime = now
    }

    static func stateSettings(_ options: DisplaySettings) -> VisualizerState.Settings {
        var settings = VisualizerState.Settings()
        settings.bars = options.bars
        settings.layout = options.barLayout
        settings.smoothing = options.smoothing
        settings.levelScale = options.levelScale
        settings.caps = options.caps
        settings.beatAccent = options.beatAccent
        settings.holdTime = options.hold / 1000
        settings.fallRate = options.fall
        settings.ballistics = options.ballistics
        settings.spectrumFloor = options.spectrumFloor
        settings.lowsAtEdges = options.lowsAtEdges
        settings.sensitivity = options.sensitivity
        settings.meterScale = options.meterScale
        settings.loudnessTargets = options.loudnessTargets
        return settings
    }

    public var mode: VisualMode {
        get { state.mode }
        set { state.mode = newValue }
    }

    /// Whether what it draws follows the beat: the accent, or a shader reading the beat.
    var usesBeats: Bool { options.beatAccent || shaderPass?.readsBeat == true }

    /// The color to clear the window to.
    public var clearColor: Color { options.background.color(theme: theme) }

    /// The mean bar value (for the latency benchmarks' frame log).
    public var meanValue: Float { state.meanValue }

    /// True when nothing on screen would change: every bar and cap has settled at the floor and no
    /// user shader animates. The window then skips drawing.
    public var isAtRest: Bool { userShaders == nil && state.isAtRest }

    func handle(_ key: PlayerKey) {
        switch key {
        case .cycleMode: state.mode = state.mode.next
        case .cycleShader: userShaders?.next()
        default: break
        }
    }

    /// Moves the display on by `dt`: `reading` covers the audio released from `feed` this frame.
    public func update(reading: LevelReading, feed: AudioFeed, dt: Double, now: Double, canvasWidth: Int) {
        userShaders?.refresh(now: now)
        // Loudness is measured from the first time the meter shows, and then for good: switching
        // modes loses no integrated loudness.
        if state.mode == .meter { feed.measureLoudness { LoudnessMeter() } }
        state.update(reading: reading, feed: feed, dt: dt, now: now, canvasWidth: canvasWidth)
    }
}
