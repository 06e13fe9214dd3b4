import CGL
import DecibarCore

/// Runs a user's fragment shader over the visualizer's area, with the bar values in a texture.
///
/// Uniforms a shader can use (see the README): `sampler2D bars` (one texel per bar, red = value
/// 0...1, left to right), `int barCount`, `vec2 resolution` (pixels), `float time` (seconds,
/// wrapped every hour so it keeps its precision), `float u_beat`, `u_beat_phase` and `u_bpm`
/// (the beat heard: see `draw`), and the theme's `vec4 background`,
/// `centerColor` and `tipColor` (also set under their earlier names `centreColour` and `tipColour`,
/// so shaders written for those keep working); `in vec2 uv` runs from (0,0) bottom left to (1,1)
/// top right. A shader that fails to compile leaves the previous one in place.
///
/// A shader written for shadertoy.com (`mainImage`, see `ShadertoySource`) is wrapped before it is
/// compiled and also gets Shadertoy's uniforms, with the audio texture on `iChannel0`.
public final class ShaderPassRenderer {
    private let vertexSource: String
    private let vertexName: String
    private var program: ShaderProgram?
    /// The program's uniform locations, looked up once per program rather than every frame.
    private var locations = Locations()

    private struct Locations {
        var bars: GLint = -1, barCount: GLint = -1, resolution: GLint = -1, time: GLint = -1
        var beat: GLint = -1, beatPhase: GLint = -1, bpm: GLint = -1, level: GLint = -1
        var resolution3: GLint = -1, timeDelta: GLint = -1, frame: GLint = -1, frameRate: GLint = -1
        var channelTime: GLint = -1, channelResolution: GLint = -1, mouse: GLint = -1, date: GLint = -1
        var sampleRate: GLint = -1, origin: GLint = -1
        var channels: (GLint, GLint, GLint, GLint) = (-1, -1, -1, -1)
        /// The theme's colors: background, center, tip, then the center and tip under their earlier names.
        var colors: (GLint, GLint, GLint, GLint, GLint) = (-1, -1, -1, -1, -1)

        init() {}

        init(_ program: ShaderProgram) {
            bars = program.uniformLocation("bars")
            barCount = program.uniformLocation("barCount")
            resolution = program.uniformLocation("resolution")
            time = program.uniformLocation("time")
            beat = program.uniformLocation("u_beat")
            beatPhase = program.uniformLocation("u_beat_phase")
            bpm = program.uniformLocation("u_bpm")
            level = program.uniformLocation("u_level")
            resolution3 = program.uniformLocation("iResolution")
            timeDelta = program.uniformLocation("iTimeDelta")
            frame = program.uniformLocation("iFrame")
            frameRate = program.uniformLocation("iFrameRate")
            channelTime = program.uniformLocation("iChannelTime")
            channelResolution = program.uniformLocation("iChannelResolution")
            mouse = program.uniformLocation("iMouse")
            date = program.uniformLocation("iDate")
            sampleRate = program.uniformLocation("iSampleRate")
            origin = program.uniformLocation("decibarOrigin")
            channels = (program.uniformLocation("iChannel0"), program.uniformLocation("iChannel1"),
                        program.uniformLocation("iChannel2"), program.uniformLocation("iChannel3"))
            if time < 0 { time = program.uniformLocation("iTime") }
            colors = (program.uniformLocation("background"), program.uniformLocation("centerColor"), program.uniformLocation("tipColor"),
                      program.uniformLocation("centreColour"), program.uniformLocation("tipColour"))
        }
    }
    private var vertexArray: GLuint = 0
    private var texture: GLuint = 0
    private var textureWidth = 0
    /// Shadertoy's audio texture (512 x 2, one byte a texel), made when a shader first reads it.
    private var audioTexture: GLuint = 0

    /// Seconds after which `time` starts again from 0.
    public static let timeWrap = 3600.0

    public init(shaders: ShaderLibrary) throws(RenderError) {
        vertexSource = try shaders.source(named: "pass.vert")
        vertexName = shaders.directory + "/pass.vert"
        glFunctions.glGenVertexArrays!(1, &vertexArray)
        glFunctions.glGenTextures!(1, &texture)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), texture)
        TextureSettings.apply(filter: GL_NEAREST)
    }

    deinit {
        if audioTexture != 0 { glFunctions.glDeleteTextures!(1, &audioTexture) }
        glFunctions.glDeleteTextures!(1, &texture)
        glFunctions.glDeleteVertexArrays!(1, &vertexArray)
    }

    /// True once some shader compiled.
    public var isReady: Bool { program != nil }

    /// Whether the shader in use reads the beat (`u_beat`, `u_beat_phase` or `u_bpm`).
    public var readsBeat: Bool { program != nil && (locations.beat >= 0 || locations.beatPhase >= 0 || locations.bpm >= 0) }

    /// Whether the shader in use reads Shadertoy's audio texture (`iChannel0`).
    public var readsAudio: Bool { program != nil && locations.channels.0 >= 0 }

    /// Whether the shader in use was written for Shadertoy.
    public private(set) var isShadertoy = false

    /// Compiles `source` (a Shadertoy shader is wrapped first) and uses it from now on; on failure
    /// throws the compiler's message, its line numbers the file's own, and keeps the shader that was there.
    ///
    /// The new shader first draws a 32 x 32 patch, timed by `clock` (seconds): one that would take
    /// longer than `costLimit` seconds a frame at 1920x1080 (a loop that never ends, which Mesa's
    /// software renderer stops after 65 535 turns per pixel) is refused, so a window cannot stall on it.
    public func load(fragmentSource source: String, name: String, clock: () -> Double) throws(RenderError) {
        let shadertoy = ShadertoySource.isShadertoy(source)
        let compiled = try ShaderProgram(vertexSource: vertexSource, vertexName: vertexName,
                                         fragmentSource: shadertoy ? ShadertoySource.wrap(source) : source, fragmentName: name)
        let kept = (program, locations, isShadertoy)
        program = compiled
        locations = Locations(compiled)
        isShadertoy = shadertoy
        // A pixel first: the driver compiles the shader on its first draw. Then a pixel again and
        // the patch, timed: their difference is what the patch's other pixels cost.
        func timedDraw(side: Int) -> Double {
            glFunctions.glFinish!()
            let start = clock()
            draw(values: [0], width: side, height: side, windowHeight: side, inputs: ShaderInputs(), theme: BarTheme.presets[0].theme)
            glFunctions.glFinish!()
            return clock() - start
        }
        _ = timedDraw(side: 1)
        let overhead = timedDraw(side: 1)
        let side = Self.probeSide
        let perFrame = max(0, timedDraw(side: side) - overhead) / Double(side * side - 1) * 1920 * 1080
        if perFrame > Self.costLimit {
            (program, locations, isShadertoy) = kept
            throw RenderError("shader \(name) would take \(Int(perFrame.rounded())) s a frame at 1920x1080 (a loop that does not end?)")
        }
    }

    /// The side of the patch a new shader is timed on, in pixels.
    static let probeSide = 32
    /// The longest a frame at 1920x1080 may take, by that timing, in seconds.
    public static let costLimit = 2.0

    /// Draws over the top `height` pixels of a `width`×`windowHeight` window.
    /// `beat` is the shaders' `u_beat` (1 at a beat, decaying), `u_beat_phase` (0...1 across the
    /// beat) and `u_bpm` (0 while no tempo is known).
    public func draw(values: [Float], width: Int, height: Int, windowHeight: Int, inputs: ShaderInputs, theme: BarTheme) {
        guard let program, !values.isEmpty else { return }
        let time = inputs.time, beat = inputs.beat
        glFunctions.glViewport!(0, GLint(windowHeight - height), GLsizei(width), GLsizei(height))
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE0))
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), texture)
        values.withUnsafeBufferPointer { texels in
            if values.count != textureWidth {
                glFunctions.glTexImage2D!(GLenum(GL_TEXTURE_2D), 0, GL_R32F, GLsizei(values.count), 1, 0, GLenum(GL_RED), GLenum(GL_FLOAT), texels.baseAddress)
                textureWidth = values.count
            } else {
                glFunctions.glTexSubImage2D!(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(values.count), 1, GLenum(GL_RED), GLenum(GL_FLOAT), texels.baseAddress)
            }
        }
        glFunctions.glUseProgram!(program.handle)
        glFunctions.glUniform1i!(locations.bars, 0)
        glFunctions.glUniform1i!(locations.barCount, GLint(values.count))
        glFunctions.glUniform2f!(locations.resolution, Float(width), Float(height))
        glFunctions.glUniform1f!(locations.time, Float(time.truncatingRemainder(dividingBy: Self.timeWrap)))
        glFunctions.glUniform1f!(locations.beat, beat.level)
        glFunctions.glUniform1f!(locations.beatPhase, beat.phase)
        glFunctions.glUniform1f!(locations.bpm, beat.bpm)
        glFunctions.glUniform1f!(locations.level, inputs.level)
        if isShadertoy { setShadertoyUniforms(inputs, width: width, height: height, windowHeight: windowHeight) }
        func set(_ location: GLint, _ color: Color) { glFunctions.glUniform4f!(location, color.red, color.green, color.blue, color.alpha) }
        set(locations.colors.0, theme.background)
        set(locations.colors.1, theme.center)
        set(locations.colors.2, theme.tip)
        set(locations.colors.3, theme.center)
        set(locations.colors.4, theme.tip)
        glFunctions.glEnable!(GLenum(GL_BLEND))
        glFunctions.glBlendFuncSeparate!(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glFunctions.glBindVertexArray!(vertexArray)
        glFunctions.glDrawArrays!(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glFunctions.glBindVertexArray!(0)
        glFunctions.glDisable!(GLenum(GL_BLEND))
    }

    /// iResolution, iTimeDelta, iFrame, iFrameRate, iChannelTime, iChannelResolution, iMouse,
    /// iDate, iSampleRate, the audio texture on unit 1, and where the drawing area starts.
    private func setShadertoyUniforms(_ inputs: ShaderInputs, width: Int, height: Int, windowHeight: Int) {
        glFunctions.glUniform3f!(locations.resolution3, Float(width), Float(height), 1)
        glFunctions.glUniform1f!(locations.timeDelta, Float(inputs.timeDelta))
        glFunctions.glUniform1i!(locations.frame, GLint(truncatingIfNeeded: inputs.frame))
        glFunctions.glUniform1f!(locations.frameRate, inputs.timeDelta > 0 ? Float(1 / inputs.timeDelta) : 60)
        let channelTime = Float(inputs.time.truncatingRemainder(dividingBy: Self.timeWrap))
        var times: (Float, Float, Float, Float) = (channelTime, channelTime, channelTime, channelTime)
        withUnsafePointer(to: &times) { $0.withMemoryRebound(to: Float.self, capacity: 4) { glFunctions.glUniform1fv!(locations.channelTime, 4, $0) } }
        var resolutions: (Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float) =
            (Float(AudioTexture.width), 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafePointer(to: &resolutions) {
            $0.withMemoryRebound(to: Float.self, capacity: 12) { glFunctions.glUniform3fv!(locations.channelResolution, 4, $0) }
        }
        glFunctions.glUniform4f!(locations.mouse, 0, 0, 0, 0)
        glFunctions.glUniform4f!(locations.date, inputs.date.0, inputs.date.1, inputs.date.2, inputs.date.3)
        glFunctions.glUniform1f!(locations.sampleRate, Float(inputs.sampleRate))
        glFunctions.glUniform2f!(locations.origin, 0, Float(windowHeight - height))
        // Units 2-4 hold nothing: iChannel1-3 read black.
        glFunctions.glUniform1i!(locations.channels.0, 1)
        glFunctions.glUniform1i!(locations.channels.1, 2)
        glFunctions.glUniform1i!(locations.channels.2, 3)
        glFunctions.glUniform1i!(locations.channels.3, 4)
        guard locations.channels.0 >= 0 else { return }
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE1))
        if audioTexture == 0 {
            glFunctions.glGenTextures!(1, &audioTexture)
            glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), audioTexture)
            // Shadertoy samples its audio input linearly, clamped at the edges.
            TextureSettings.apply(filter: GL_LINEAR)
            glFunctions.glTexImage2D!(GLenum(GL_TEXTURE_2D), 0, GL_R8, GLsizei(AudioTexture.width), 2, 0, GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE), nil)
        } else {
            glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), audioTexture)
        }
        if let audio = inputs.audio {
            glFunctions.glPixelStorei!(GLenum(GL_UNPACK_ALIGNMENT), 1)
            audio.withUnsafeBufferPointer { bytes in
                glFunctions.glTexSubImage2D!(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(AudioTexture.width), 2, GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            }
            glFunctions.glPixelStorei!(GLenum(GL_UNPACK_ALIGNMENT), 4)
        }
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE0))
    }
}
