import CGL
import DecibarCore

/// Blends two Milkdrop pictures through a transition shader (`Shaders/transitions/STYLE.frag`)
/// into the framebuffer bound, over the viewport set. Each style's program is built the first time
/// it is drawn, so a run that only cuts builds none.
final class MilkdropTransitionRenderer {
    private let shaders: ShaderLibrary
    private var programs: [PresetTransitionStyle: Program] = [:]
    private var vertexArray: GLuint = 0

    private struct Program {
        let program: ShaderProgram
        let progress: GLint
        let variation: GLint
        let size: GLint
    }

    init(shaders: ShaderLibrary) {
        self.shaders = shaders
        glFunctions.glGenVertexArrays!(1, &vertexArray)
    }

    deinit {
        glFunctions.glDeleteVertexArrays!(1, &vertexArray)
    }

    /// The file of a style's shader, within the shader folder.
    static func shaderName(of style: PresetTransitionStyle) -> String {
        "transitions/\(style.rawValue).frag"
    }

    /// Draws `outgoing` giving way to `incoming` (textures of `width`×`height`) at `progress`.
    func draw(style: PresetTransitionStyle, outgoing: GLuint, incoming: GLuint, progress: Double,
              variation: (Float, Float, Float, Float), width: Int, height: Int) throws(RenderError) {
        let program = try program(for: style)
        glFunctions.glUseProgram!(program.program.handle)
        glFunctions.glUniform1f!(program.progress, Float(min(1, max(0, progress))))
        glFunctions.glUniform4f!(program.variation, variation.0, variation.1, variation.2, variation.3)
        glFunctions.glUniform2f!(program.size, Float(width), Float(height))
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE1))
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), incoming)
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE0))
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), outgoing)
        glFunctions.glBindVertexArray!(vertexArray)
        glFunctions.glDrawArrays!(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glFunctions.glBindVertexArray!(0)
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE1))
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE0))
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
        glFunctions.glUseProgram!(0)
    }

    private func program(for style: PresetTransitionStyle) throws(RenderError) -> Program {
        if let made = programs[style] { return made }
        let program = try ShaderProgram(library: shaders, vertex: "pass.vert", fragment: Self.shaderName(of: style))
        glFunctions.glUseProgram!(program.handle)
        glFunctions.glUniform1i!(program.uniformLocation("outgoing"), 0)
        glFunctions.glUniform1i!(program.uniformLocation("incoming"), 1)
        glFunctions.glUseProgram!(0)
        let made = Program(program: program, progress: program.uniformLocation("progress"),
                           variation: program.uniformLocation("variation"), size: program.uniformLocation("size"))
        programs[style] = made
        return made
    }
}
