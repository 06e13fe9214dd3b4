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
    private let flipLocation: GLint

    /// A frame has been uploaded since the last `forget`.
    public var hasPicture: Bool { textureSize.width > 0 }

    public init(shaders: ShaderLibrary) throws(RenderError) {
        program = try ShaderProgram(library: shaders, vertex: "picture.vert", fragment: "picture.frag")
        rectLocation = program.uniformLocation("rect")
        canvasSizeLocation = program.uniformLocation("canvasSize")
        flipLocation = program.uniformLocation("bottomRowFirst")
        glFunctions.glGenVertexArrays!(1, &vertexArray)
        glFunctions.glGenTextures!(1, &texture)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), texture)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
    }

    deinit {
        glFunctions.glDeleteTextures!(1, &texture)
        glFunctions.glDeleteVertexArrays!(1, &vertexArray)
    }

    /// Replaces the frame drawn.
    public func upload(_ picture: Picture) {
        guard picture.width > 0, picture.height > 0, picture.pixels.count >= picture.width * picture.height * 4 else { return }
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), texture)
        glFunctions.glPixelStorei!(GLenum(GL_UNPACK_ALIGNMENT), 4)
        picture.pixels.withUnsafeBytes { bytes in
            if textureSize != (picture.width, picture.height) {
                glFunctions.glTexImage2D!(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(picture.width), GLsizei(picture.height), 0,
                             GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
                textureSize = (picture.width, picture.height)
            } else {
                glFunctions.glTexSubImage2D!(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(picture.width), GLsizei(picture.height),
                                GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            }
        }
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
    }

    /// No frame any more (another track): nothing is drawn until the next upload.
    public func forget() { textureSize = (0, 0) }

    /// Draws the last frame uploaded into `rect` of a `canvasWidth`×`canvasHeight` canvas.
    public func draw(in rect: PixelRect, canvasWidth: Int, canvasHeight: Int) {
        guard hasPicture else { return }
        draw(texture: texture, bottomRowFirst: false, in: rect, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    }

    /// Draws another texture the same way; `bottomRowFirst` for one OpenGL drew into (its first
    /// row is the bottom).
    func draw(texture: GLuint, bottomRowFirst: Bool, in rect: PixelRect, canvasWidth: Int, canvasHeight: Int) {
        glFunctions.glViewport!(0, 0, GLsizei(canvasWidth), GLsizei(canvasHeight))
        glFunctions.glUseProgram!(program.handle)
        glFunctions.glUniform4f!(rectLocation, Float(rect.x), Float(rect.y), Float(rect.width), Float(rect.height))
        glFunctions.glUniform2f!(canvasSizeLocation, Float(canvasWidth), Float(canvasHeight))
        glFunctions.glUniform1i!(flipLocation, bottomRowFirst ? 1 : 0)
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE0))
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), texture)
        glFunctions.glBindVertexArray!(vertexArray)
        glFunctions.glDrawArrays!(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glFunctions.glBindVertexArray!(0)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
    }
}
