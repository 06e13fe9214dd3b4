import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// What every picture of a window draws with, made once per GL context: the renderers, the label
/// font, the user's shaders, the theme and layout, and storage reused from frame to frame (a frame
/// allocates nothing once running; numbers are drawn from cached glyphs rather than new strings).
final class VisualTools {
    let display: DisplaySettings
    let shaders: ShaderLibrary
    let theme: BarTheme
    let layout: BarLayout
    let barRenderer: BarRenderer
    /// Bars around a circle (`--layout radial`); made only for that layout.
    let radialRenderer: RadialBarRenderer?
    let rects: RectRenderer
    let labels: TextRenderer?
    let userShaders: UserShaders?
    let shaderPass: ShaderPassRenderer?
    /// Bit-identical output from run to run (offline renders): FFTW plans are estimated, not timed.
    let deterministic: Bool

    var barRects: [PixelRect] = []
    var capRects: [PixelRect] = []
    var capStrips: [PixelRect] = []
    var shapes: [(PixelRect, Color)] = []
    var shaderValues: [Float] = []
    var textBytes: [UInt8] = []
    /// What the user's shader is told each frame (`prepareShaderInputs`).
    var shaderInputs = ShaderInputs()
    /// The user's shader at a fraction of the picture's size (`shader_scale`): the fraction, what
    /// moves it with `auto` in a window, the timer that feeds it, and the target it draws into.
    var shaderScale = 1.0
    var dynamicShaderScale: DynamicScale?
    var shaderTimer: DrawTimer?
    var scaledPass: ScaledPass?
    /// Shadertoy's audio texture, made when a shader first reads it.
    private var audioTexture: AudioTexture?
    /// Where iDate's seconds start: the local time of day when the window opened (a render: 0).
    private let dayStart: (date: (Float, Float, Float), seconds: Double)

    init(display: DisplaySettings, shaders: ShaderLibrary, labelSize: Int, deterministic: Bool) throws(RenderError) {
        self.display = display
        self.shaders = shaders
        self.deterministic = deterministic
        theme = display.barTheme
        layout = display.barLayout
        barRenderer = try BarRenderer(shaders: shaders)
        radialRenderer = display.arrangement == .radial ? try RadialBarRenderer(shaders: shaders) : nil
        rects = try RectRenderer(shaders: shaders)
        labels = try? TextRenderer(shaders: shaders, pixelSize: labelSize)
        if let file = display.shader {
            guard FileManager.default.isReadableFile(atPath: file) else { throw RenderError("cannot read the shader \(file)") }
            let pass = try ShaderPassRenderer(shaders: shaders)
            shaderPass = pass
            let folder = (file as NSString).deletingLastPathComponent
            userShaders = UserShaders(directory: folder.isEmpty ? "." : folder, first: (file as NSString).lastPathComponent, renderer: pass)
        } else if let directory = display.shaderDirectory {
            let pass = try ShaderPassRenderer(shaders: shaders)
            shaderPass = pass
            userShaders = UserShaders(directory: directory, renderer: pass)
        } else {
            shaderPass = nil
            userShaders = nil
        }
        if shaderPass != nil {
            switch display[ConfigSchema.display.shaderScale] {
            case .fixed(let fixed): shaderScale = fixed
            case .automatic where deterministic: shaderScale = 1
            case .automatic:
                dynamicShaderScale = DynamicScale()
                shaderTimer = DrawTimer(softwareRenderer: GLRenderer.isSoftware, clock: MonotonicClock.now)
            }
            if shaderScale < 1 || dynamicShaderScale != nil { scaledPass = try ScaledPass(shaders: shaders) }
        }
        if deterministic {
            dayStart = ((2000, 0, 1), 0)
        } else {
            let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: Date())
            let year = Float(parts.year ?? 2000), month = Float((parts.month ?? 1) - 1), day = Float(parts.day ?? 1)
            let wholeSeconds: Int = (parts.hour ?? 0) * 3600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0)
            let fraction: Double = Double(parts.nanosecond ?? 0) / 1e9
            dayStart = ((year, month, day), Double(wholeSeconds) + fraction)
        }
    }

    /// Moves the shader's inputs on by one frame: the clock, and the audio texture when the
    /// shader reads it (from the newest audio `feed` released).
    func prepareShaderInputs(feed: AudioFeed, dt: Double, time: Double) {
        guard let shaderPass, shaderPass.isReady else { return }
        shaderInputs.time = time
        shaderInputs.timeDelta = dt
        shaderInputs.sampleRate = Double(feed.format?.sampleRate ?? 48000)
        shaderInputs.date = (dayStart.date.0, dayStart.date.1, dayStart.date.2, Float(dayStart.seconds + time))
        if shaderPass.readsAudio {
            if audioTexture == nil, let transform = FFTWTransform(length: AudioTexture.fftSize) {
                audioTexture = AudioTexture(transform: transform)
            }
            // The inputs let go of last frame's bytes first, so the texture updates them in place.
            shaderInputs.audio = nil
            audioTexture?.update(from: feed)
            shaderInputs.audio = audioTexture?.bytes
        } else {
            shaderInputs.audio = nil
        }
    }

    /// The pictures' settings, from the display's.
    static func visualSettings(_ display: DisplaySettings) -> VisualSettings {
        var settings = VisualSettings()
        settings.bars = display.bars
        settings.layout = display.barLayout
        settings.smoothing = display.smoothing
        settings.levelScale = display.levelScale
        settings.caps = display.caps
        settings.beatAccent = display.beatAccent
        settings.holdTime = display.hold / 1000
        settings.fallRate = display.fall
        settings.sensitivity = display.sensitivity
        settings.configuration = display.configuration
        return settings
    }
}
