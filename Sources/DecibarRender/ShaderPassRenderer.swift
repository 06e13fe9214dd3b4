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
public final class ShaderPassRenderer {
    private let vertexSource: String
    private let vertexName: String
    private var program: ShaderProgram?
    /// The program's uniform locations, looked up once per program rather than every frame.
    private var locations = Locations()

    private struct Locations {
        var bars: GLint = -1, barCount: GLint = -1, resolution: GLint = -1, time: GLint = -1
        var beat: GLint = -1, beatPhase: GLint = -1, bpm: GLint = -1
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
            colors = (program.uniformLocation("background"), program.uniformLocation("centerColor"), program.uniformLocation("tipColor"),
                      program.uniformLocation("centreColour"), program.uniformLocation("tipColour"))
        }
    }
    private var vertexArray: GLuint = 0
    private var texture: GLuint = 0
    private var textureWidth = 0

    /// Seconds after which `time` starts again from 0.
    public static let timeWrap = 3600.0

    public init(shaders: ShaderLibrary) throws(RenderError) {
        vertexSource = try shaders.source(named: "pass.vert")
        vertexName = shaders.directory + "/pass.vert"
        glFunctions.glGenVertexArrays!(1, &vertexArray)
        glFunctions.glGenTextures!(1, &texture)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), texture)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    }

    deinit {
        glFunctions.glDeleteTextures!(1, &texture)
        glFunctions.glDeleteVertexArrays!(1, &vertexArray)
    }

    /// True once some shader compiled.
    public var isReady: Bool { program != nil }

    /// Whether the shader in use reads the beat (`u_beat`, `u_beat_phase` or `u_bpm`).
    public var readsBeat: Bool { program != nil && (locations.beat >= 0 || locations.beatPhase >= 0 || locations.bpm >= 0) }

    /// Compiles `source` and uses it from now on; on failure throws the compiler's message and
    /// keeps the shader that was there.
    public func load(fragmentSource source: String, name: String) throws(RenderError) {
        let compiled = try ShaderProgram(vertexSource: vertexSource, vertexName: vertexName, fragmentSource: source, fragmentName: name)
        program = compiled
        locations = Locations(compiled)
    }

    /// Draws over the top `height` pixels of a `width`×`windowHeight` window.
    /// `beat` is the shaders' `u_beat` (1 at a beat, decaying), `u_beat_phase` (0...1 across the
    /// beat) and `u_bpm` (0 while no tempo is known).
    public func draw(values: [Float], width: Int, height: Int, windowHeight: Int, time: Double,
                     beat: (level: Float, phase: Float, bpm: Float) = (0, 0, 0), theme: BarTheme) {
        guard let program, !values.isEmpty else { return }
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
}
