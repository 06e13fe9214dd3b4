import CGL

/// A vertex array whose one attribute (location 0, four floats) steps once per instance, and the
/// buffer behind it, grown only when more instances come: what the instanced bar renderers draw from.
final class InstanceBuffer {
    private(set) var vertexArray: GLuint = 0
    private var buffer: GLuint = 0
    private var capacity = 0

    init() {
        glFunctions.glGenVertexArrays!(1, &vertexArray)
        glFunctions.glGenBuffers!(1, &buffer)
        glFunctions.glBindVertexArray!(vertexArray)
        glFunctions.glBindBuffer!(GLenum(GL_ARRAY_BUFFER), buffer)
        glFunctions.glEnableVertexAttribArray!(0)
        glFunctions.glVertexAttribPointer!(0, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), GLsizei(4 * MemoryLayout<Float>.size), nil)
        glFunctions.glVertexAttribDivisor!(0, 1)
        glFunctions.glBindVertexArray!(0)
    }

    deinit {
        glFunctions.glDeleteBuffers!(1, &buffer)
        glFunctions.glDeleteVertexArrays!(1, &vertexArray)
    }

    /// Sends `data` (four floats an instance).
    func upload(_ data: [Float]) {
        let instances = data.count / 4
        glFunctions.glBindBuffer!(GLenum(GL_ARRAY_BUFFER), buffer)
        data.withUnsafeBytes { bytes in
            if instances > capacity {
                glFunctions.glBufferData!(GLenum(GL_ARRAY_BUFFER), bytes.count, bytes.baseAddress, GLenum(GL_STREAM_DRAW))
                capacity = instances
            } else {
                glFunctions.glBufferSubData!(GLenum(GL_ARRAY_BUFFER), 0, bytes.count, bytes.baseAddress)
            }
        }
    }

    /// Draws `count` instances of a four-corner strip.
    func draw(count: Int) {
        glFunctions.glBindVertexArray!(vertexArray)
        glFunctions.glDrawArraysInstanced!(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(count))
        glFunctions.glBindVertexArray!(0)
    }
}
