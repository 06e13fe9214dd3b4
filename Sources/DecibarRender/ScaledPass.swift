import CGL
import DecibarCore

/// A picture drawn at a fraction of its size into a texture of its own, then scaled up (and
/// sharpened) into the canvas through its transparency: how a costly user shader keeps the frame
/// rate. Between `begin` and `finish` the picture draws as if its area were the whole, smaller,
/// window.
public final class ScaledPass {
    private let pictures: PictureRenderer
    private var framebuffer: GLuint = 0
    private var texture: GLuint = 0
    private var size = (width: 0, height: 0)
    private var savedFramebuffer: GLint = 0
    private var savedViewport: (GLint, GLint, GLint, GLint) = (0, 0, 0, 0)

    public init(shaders: ShaderLibrary) throws(RenderError) {
        pictures = try PictureRenderer.upscaler(shaders: shaders)
    }

    deinit {
        release()
    }

    /// Binds a transparent `width`×`height` target (made again only when the size changes) and
    /// returns its size; the picture then draws into it from (0, 0).
    public func begin(width: Int, height: Int) throws(RenderError) -> (width: Int, height: Int) {
        let wanted = (width: max(1, width), height: max(1, height))
        glFunctions.glGetIntegerv!(GLenum(GL_DRAW_FRAMEBUFFER_BINDING), &savedFramebuffer)
        withUnsafeMutableBytes(of: &savedViewport) {
            glFunctions.glGetIntegerv!(GLenum(GL_VIEWPORT), $0.baseAddress!.assumingMemoryBound(to: GLint.self))
        }
        if size != wanted {
            release()
            glFunctions.glGenTextures!(1, &texture)
            glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), texture)
            glFunctions.glTexImage2D!(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(wanted.width), GLsizei(wanted.height), 0, GLenum(GL_RGBA),
                                      GLenum(GL_UNSIGNED_BYTE), nil)
            TextureSettings.apply(filter: GL_LINEAR)
            glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
            glFunctions.glGenFramebuffers!(1, &framebuffer)
            glFunctions.glBindFramebuffer!(GLenum(GL_FRAMEBUFFER), framebuffer)
            glFunctions.glFramebufferTexture2D!(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
            guard glFunctions.glCheckFramebufferStatus!(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
                release()
                glFunctions.glBindFramebuffer!(GLenum(GL_FRAMEBUFFER), GLuint(savedFramebuffer))
                throw RenderError("a \(wanted.width)x\(wanted.height) framebuffer is not possible here")
            }
            size = wanted
        }
        glFunctions.glBindFramebuffer!(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFunctions.glViewport!(0, 0, GLsizei(size.width), GLsizei(size.height))
        glFunctions.glClearColor!(0, 0, 0, 0)
        glFunctions.glClear!(GLbitfield(GL_COLOR_BUFFER_BIT))
        return size
    }

    /// Puts back the canvas and draws the picture into `rect` of it (top-left origin), over what
    /// is there: the picture's colors were blended into transparency, so they are already weighted
    /// by it.
    public func finish(into rect: PixelRect, canvasWidth: Int, canvasHeight: Int) {
        glFunctions.glBindFramebuffer!(GLenum(GL_FRAMEBUFFER), GLuint(savedFramebuffer))
        glFunctions.glViewport!(savedViewport.0, savedViewport.1, savedViewport.2, savedViewport.3)
        glFunctions.glEnable!(GLenum(GL_BLEND))
        glFunctions.glBlendFuncSeparate!(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        pictures.draw(texture: texture, bottomRowFirst: true, in: rect, canvasWidth: canvasWidth, canvasHeight: canvasHeight,
                      keepsAlpha: true, sharpness: PictureRenderer.sharpness(upscaledBy: Double(rect.width) / Double(max(1, size.width))))
        glFunctions.glDisable!(GLenum(GL_BLEND))
    }

    private func release() {
        if framebuffer != 0 { glFunctions.glDeleteFramebuffers!(1, &framebuffer) }
        if texture != 0 { glFunctions.glDeleteTextures!(1, &texture) }
        (framebuffer, texture, size) = (0, 0, (0, 0))
    }
}
