import CGL
import DecibarCore

/// Draws many colored rectangles in one instanced call, blended over what is there.
public final class RectRenderer {
    private let program: ShaderProgram
    private var vertexArray: GLuint = 0
    private var instanceBuffer: GLuint = 0
    private var instanceData: [Float] = []
    /// Rectangles the buffer has room for; it is only reallocated to grow.
    private var instanceCapacity = 0
    private let canvasSizeLocation: GLint

    public init(shaders: ShaderLibrary) throws(RenderError) {
        program = try ShaderProgram(library: shaders, vertex: "rects.vert", fragment: "rects.frag")
        canvasSizeLocation = program.uniformLocation("canvasSize")
        glFunctions.glGenVertexArrays!(1, &vertexArray)
        glFunctions.glGenBuffers!(1, &instanceBuffer)
        glFunctions.glBindVertexArray!(vertexArray)
        glFunctions.glBindBuffer!(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        let stride = GLsizei(8 * MemoryLayout<Float>.size)
        glFunctions.glEnableVertexAttribArray!(0)
        glFunctions.glVertexAttribPointer!(0, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, nil)
        glFunctions.glVertexAttribDivisor!(0, 1)
        glFunctions.glEnableVertexAttribArray!(1)
        glFunctions.glVertexAttribPointer!(1, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, UnsafeRawPointer(bitPattern: 4 * MemoryLayout<Float>.size))
        glFunctions.glVertexAttribDivisor!(1, 1)
        glFunctions.glBindVertexArray!(0)
    }

    deinit {
        glFunctions.glDeleteBuffers!(1, &instanceBuffer)
        glFunctions.glDeleteVertexArrays!(1, &vertexArray)
    }

    /// Draws `rects`; `blends` false writes their colours as they are (opaque panels: a software
    /// renderer then need not read what is under them).
    public func draw(_ rects: [(PixelRect, Color)], canvasWidth: Int, canvasHeight: Int, blends: Bool = true) {
        guard !rects.isEmpty else { return }
        instanceData.removeAll(keepingCapacity: true)
        for (rect, color) in rects {
            instanceData.append(Float(rect.x))
            instanceData.append(Float(rect.y))
            instanceData.append(Float(rect.width))
            instanceData.append(Float(rect.height))
            instanceData.append(color.red)
            instanceData.append(color.green)
            instanceData.append(color.blue)
            instanceData.append(color.alpha)
        }
        glFunctions.glViewport!(0, 0, GLsizei(canvasWidth), GLsizei(canvasHeight))
        if blends {
            glFunctions.glEnable!(GLenum(GL_BLEND))
            glFunctions.glBlendFuncSeparate!(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        }
        glFunctions.glBindBuffer!(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        instanceData.withUnsafeBytes { bytes in
            if rects.count > instanceCapacity {
                glFunctions.glBufferData!(GLenum(GL_ARRAY_BUFFER), bytes.count, bytes.baseAddress, GLenum(GL_STREAM_DRAW))
                instanceCapacity = rects.count
            } else {
                glFunctions.glBufferSubData!(GLenum(GL_ARRAY_BUFFER), 0, bytes.count, bytes.baseAddress)
            }
        }
        glFunctions.glUseProgram!(program.handle)
        glFunctions.glUniform2f!(canvasSizeLocation, Float(canvasWidth), Float(canvasHeight))
        glFunctions.glBindVertexArray!(vertexArray)
        glFunctions.glDrawArraysInstanced!(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(rects.count))
        glFunctions.glBindVertexArray!(0)
        glFunctions.glDisable!(GLenum(GL_BLEND))
    }
}
