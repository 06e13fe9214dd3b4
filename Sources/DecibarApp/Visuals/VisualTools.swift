import DecibarCore
import DecibarRender

/// What every picture of a window draws with, made once per GL context: the renderers, the label
/// font, the user's shaders, the theme and layout, and storage reused from frame to frame (a frame
/// allocates nothing once running; numbers are drawn from cached glyphs rather than new strings).
final class VisualTools {
    let options: DisplaySettings
    let shaders: ShaderLibrary
    let theme: BarTheme
    let layout: BarLayout
    let barRenderer: BarRenderer
    let rects: RectRenderer
    let labels: TextRenderer?
    let userShaders: UserShaders?
    let shaderPass: ShaderPassRenderer?
    /// Bit-identical output from run to run (offline renders): FFTW plans are estimated, not timed.
    let deterministic: Bool

    var barRects: [PixelRect] = []
    var capRects: [PixelRect] = []
    var shapes: [(PixelRect, Color)] = []
    var shaderValues: [Float] = []
    var textBytes: [UInt8] = []

    init(options: DisplaySettings, shaders: ShaderLibrary, labelSize: Int, deterministic: Bool) throws(RenderError) {
        self.options = options
        self.shaders = shaders
        self.deterministic = deterministic
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
    }

    /// The pictures' settings, from the display's.
    static func visualSettings(_ options: DisplaySettings) -> VisualSettings {
        var settings = VisualSettings()
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
}
