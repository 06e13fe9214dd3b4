import CGL
import DecibarCore

/// Draws a video frame into a pixel rectangle: the frame's RGBA rows go into a texture (made
/// again only when the frame's size changes), drawn with linear filtering at any size.
public final class PictureRenderer {
    private let program: ShaderProgram
    private var vertexArray: GLuint = 0
    private var texture: GLuint = 0
    private var textureSize = (width: 0, height: 0)
    private let rectLocation: GLint
    private let canvasSizeLocation: GLint

    /// A frame has been uploaded since the last `forget`.
    public var hasPicture: Bool { textureSize.width > 0 }

    public init(shaders: ShaderLibrary) throws(RenderError) {
        program = try ShaderProgram(library: shaders, vertex: "picture.vert", fragment: "picture.frag")
        rectLocation = program.uniformLocation("rect")
        canvasSizeLocation = program.uniformLocation("canvasSize")
        glGenVertexArrays(1, &vertexArray)
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
    }

    deinit {
        glDeleteTextures(1, &texture)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Replaces the frame drawn.
    public func upload(_ picture: Picture) {
        guard picture.width > 0, picture.height > 0, picture.pixels.count >= picture.width * picture.height * 4 else { return }
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        picture.pixels.withUnsafeBytes { bytes in
            if textureSize != (picture.width, picture.height) {
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(picture.width), GLsizei(picture.height), 0,
                             GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
                textureSize = (picture.width, picture.height)
            } else {
                glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(picture.width), GLsizei(picture.height),
                                GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            }
        }
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
    }

    /// No frame any more (another track): nothing is drawn until the next upload.
    public func forget() { textureSize = (0, 0) }

    /// Draws the last frame uploaded into `rect` of a `canvasWidth`×`canvasHeight` canvas.
    public func draw(in rect: PixelRect, canvasWidth: Int, canvasHeight: Int) {
        guard hasPicture else { return }
        glViewport(0, 0, GLsizei(canvasWidth), GLsizei(canvasHeight))
        glUseProgram(program.handle)
        glUniform4f(rectLocation, Float(rect.x), Float(rect.y), Float(rect.width), Float(rect.height))
        glUniform2f(canvasSizeLocation, Float(canvasWidth), Float(canvasHeight))
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glBindVertexArray(vertexArray)
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glBindVertexArray(0)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
    }
}
