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
    private let cropLocation: GLint
    private let roundLocation: GLint
    private let edgeLocation: GLint
    private let keepsAlphaLocation: GLint
    private let sharpnessLocation: GLint

    /// A frame has been uploaded since the last `forget`.
    public var hasPicture: Bool { textureSize.width > 0 }

    public convenience init(shaders: ShaderLibrary) throws(RenderError) {
        try self.init(shaders: shaders, fragment: "picture.frag")
    }

    /// One that draws a texture drawn smaller than shown, scaled up and sharpened (`upscale.frag`):
    /// only `draw(texture:...)` with its `sharpness` and `keepsAlpha`.
    public static func upscaler(shaders: ShaderLibrary) throws(RenderError) -> PictureRenderer {
        try PictureRenderer(shaders: shaders, fragment: "upscale.frag")
    }

    private init(shaders: ShaderLibrary, fragment: String) throws(RenderError) {
        program = try ShaderProgram(library: shaders, vertex: "picture.vert", fragment: fragment)
        rectLocation = program.uniformLocation("rect")
        canvasSizeLocation = program.uniformLocation("canvasSize")
        flipLocation = program.uniformLocation("bottomRowFirst")
        cropLocation = program.uniformLocation("cropScale")
        roundLocation = program.uniformLocation("round")
        edgeLocation = program.uniformLocation("edge")
        keepsAlphaLocation = program.uniformLocation("keepsAlpha")
        sharpnessLocation = program.uniformLocation("sharpness")
        glFunctions.glGenVertexArrays!(1, &vertexArray)
        glFunctions.glGenTextures!(1, &texture)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), texture)
        TextureSettings.apply(filter: GL_LINEAR)
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

    /// Draws the last frame uploaded filling `rect`, cropped around its middle to the rectangle's
    /// shape (a backdrop scaled to cover the frame).
    public func drawFilling(_ rect: PixelRect, canvasWidth: Int, canvasHeight: Int) {
        guard hasPicture, rect.width > 0, rect.height > 0 else { return }
        let picture = Double(textureSize.width) / Double(textureSize.height)
        let shape = Double(rect.width) / Double(rect.height)
        let crop = picture > shape ? (Float(shape / picture), Float(1)) : (Float(1), Float(picture / shape))
        draw(texture: texture, bottomRowFirst: false, in: rect, canvasWidth: canvasWidth, canvasHeight: canvasHeight, crop: crop)
    }

    /// Draws the last frame uploaded into `rect` over what is there, through its own transparency
    /// (a watermark's logo).
    public func drawBlended(in rect: PixelRect, canvasWidth: Int, canvasHeight: Int) {
        guard hasPicture else { return }
        glFunctions.glEnable!(GLenum(GL_BLEND))
        glFunctions.glBlendFuncSeparate!(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        draw(texture: texture, bottomRowFirst: false, in: rect, canvasWidth: canvasWidth, canvasHeight: canvasHeight, keepsAlpha: true)
        glFunctions.glDisable!(GLenum(GL_BLEND))
    }

    /// Draws the last frame uploaded filling the circle inside the square `rect`: cropped to a
    /// square around its middle, edged softly (cover art in the middle of radial bars).
    public func drawRound(in rect: PixelRect, canvasWidth: Int, canvasHeight: Int) {
        guard hasPicture, rect.width > 0 else { return }
        let aspect = Double(textureSize.width) / Double(textureSize.height)
        let crop = aspect > 1 ? (Float(1 / aspect), Float(1)) : (Float(1), Float(aspect))
        glFunctions.glEnable!(GLenum(GL_BLEND))
        glFunctions.glBlendFuncSeparate!(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        draw(texture: texture, bottomRowFirst: false, in: rect, canvasWidth: canvasWidth, canvasHeight: canvasHeight,
             crop: crop, round: true, edge: Float(3 / Double(rect.width)))
        glFunctions.glDisable!(GLenum(GL_BLEND))
    }

    /// How much an upscaler sharpens a picture scaled up by `factor` (its shown size over its
    /// drawn size): none at its own size, 0.35 at twice, at most 0.6 (more turns thin lines to steps).
    public static func sharpness(upscaledBy factor: Double) -> Float {
        factor <= 1 ? 0 : Float(min(0.6, (factor - 1) * 0.35))
    }

    /// Draws another texture the same way; `bottomRowFirst` for one OpenGL drew into (its first
    /// row is the bottom); `sharpness` for an upscaler's (`sharpness(upscaledBy:)`).
    func draw(texture: GLuint, bottomRowFirst: Bool, in rect: PixelRect, canvasWidth: Int, canvasHeight: Int,
              crop: (Float, Float) = (1, 1), round: Bool = false, edge: Float = 0, keepsAlpha: Bool = false, sharpness: Float = 0) {
        glFunctions.glViewport!(0, 0, GLsizei(canvasWidth), GLsizei(canvasHeight))
        glFunctions.glUseProgram!(program.handle)
        glFunctions.glUniform2f!(cropLocation, crop.0, crop.1)
        glFunctions.glUniform1i!(roundLocation, round ? 1 : 0)
        glFunctions.glUniform1f!(edgeLocation, edge)
        glFunctions.glUniform1i!(keepsAlphaLocation, keepsAlpha ? 1 : 0)
        glFunctions.glUniform1f!(sharpnessLocation, sharpness)
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
