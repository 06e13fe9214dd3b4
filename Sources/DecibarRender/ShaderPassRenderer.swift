import CGL
import DecibarCore

/// Runs a user's fragment shader over the visualizer's area, with the bar values in a texture.
///
/// Uniforms a shader can use (see the README): `sampler2D bars` (one texel per bar, red = value
/// 0...1, left to right), `int barCount`, `vec2 resolution` (pixels), `float time` (seconds,
/// wrapped every hour so it keeps its precision), and the theme's `vec4 background`,
/// `centreColour` and `tipColour`; `in vec2 uv` runs from (0,0) bottom left to (1,1) top right.
/// A shader that fails to compile leaves the previous one in place.
public final class ShaderPassRenderer {
    private let vertexSource: String
    private let vertexName: String
    private var program: ShaderProgram?
    private var vertexArray: GLuint = 0
    private var texture: GLuint = 0
    private var textureWidth = 0

    /// Seconds after which `time` starts again from 0.
    public static let timeWrap = 3600.0

    public init(shaders: ShaderLibrary) throws(RenderError) {
        vertexSource = try shaders.source(named: "pass.vert")
        vertexName = shaders.directory + "/pass.vert"
        glGenVertexArrays(1, &vertexArray)
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    }

    deinit {
        glDeleteTextures(1, &texture)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// True once some shader compiled.
    public var isReady: Bool { program != nil }

    /// Compiles `source` and uses it from now on; on failure throws the compiler's message and
    /// keeps the shader that was there.
    public func load(fragmentSource source: String, name: String) throws(RenderError) {
        program = try ShaderProgram(vertexSource: vertexSource, vertexName: vertexName, fragmentSource: source, fragmentName: name)
    }

    /// Draws over the top `height` pixels of a `width`×`windowHeight` window.
    public func draw(values: [Float], width: Int, height: Int, windowHeight: Int, time: Double, theme: BarTheme) {
        guard let program, !values.isEmpty else { return }
        glViewport(0, GLint(windowHeight - height), GLsizei(width), GLsizei(height))
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        values.withUnsafeBufferPointer { texels in
            if values.count != textureWidth {
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R32F, GLsizei(values.count), 1, 0, GLenum(GL_RED), GLenum(GL_FLOAT), texels.baseAddress)
                textureWidth = values.count
            } else {
                glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(values.count), 1, GLenum(GL_RED), GLenum(GL_FLOAT), texels.baseAddress)
            }
        }
        glUseProgram(program.handle)
        glUniform1i(program.uniformLocation("bars"), 0)
        glUniform1i(program.uniformLocation("barCount"), GLint(values.count))
        glUniform2f(program.uniformLocation("resolution"), Float(width), Float(height))
        glUniform1f(program.uniformLocation("time"), Float(time.truncatingRemainder(dividingBy: Self.timeWrap)))
        for (name, colour) in [("background", theme.background), ("centreColour", theme.centre), ("tipColour", theme.tip)] {
            glUniform4f(program.uniformLocation(name), colour.red, colour.green, colour.blue, colour.alpha)
        }
        glEnable(GLenum(GL_BLEND))
        glBlendFuncSeparate(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glBindVertexArray(vertexArray)
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glBindVertexArray(0)
        glDisable(GLenum(GL_BLEND))
    }
}
