import CGL

/// How a texture is sampled: set on the bound 2D texture once, when it is made.
enum TextureSettings {
    /// Filters (`GL_LINEAR` or `GL_NEAREST`) and wraps (`GL_CLAMP_TO_EDGE`, `GL_REPEAT`) of the texture bound now.
    static func apply(filter: GLint, wrapS: GLint = GL_CLAMP_TO_EDGE, wrapT: GLint = GL_CLAMP_TO_EDGE) {
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), wrapS)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), wrapT)
    }
}
