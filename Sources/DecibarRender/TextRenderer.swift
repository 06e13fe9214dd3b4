import CGL
import DecibarCore

/// Draws short labels ("waiting for audio server", device names, later times and scales).
/// Each distinct string is rendered once into a texture and reused while it stays on screen.
public final class TextRenderer {
    private struct Label {
        var texture: GLuint
        var width: Int
        var height: Int
        var lastUsedFrame: Int
    }

    private let program: ShaderProgram
    private let font: Font
    private var vertexArray: GLuint = 0
    private var labels: [String: Label] = [:]
    private var frame = 0
    private let labelRectLocation: GLint
    private let canvasSizeLocation: GLint
    private let textColorLocation: GLint
    private let backdropLocation: GLint

    /// Labels unused for this many frames are dropped, so changing text does not pile up textures.
    static let idleFramesBeforeEviction = 120

    public init(shaders: ShaderLibrary, pixelSize: Int, bold: Bool = false) throws(RenderError) {
        program = try ShaderProgram(library: shaders, vertex: "text.vert", fragment: "text.frag")
        font = try Font(pixelSize: pixelSize, bold: bold)
        labelRectLocation = program.uniformLocation("labelRect")
        canvasSizeLocation = program.uniformLocation("canvasSize")
        textColorLocation = program.uniformLocation("textColor")
        backdropLocation = program.uniformLocation("backdrop")
        glFunctions.glGenVertexArrays!(1, &vertexArray)
    }

    deinit {
        for label in labels.values { var texture = label.texture; glFunctions.glDeleteTextures!(1, &texture) }
        glFunctions.glDeleteVertexArrays!(1, &vertexArray)
    }

    public var pixelSize: Int { font.pixelSize }

    /// The size `text` takes on screen, in pixels.
    public func size(of text: String) -> (width: Int, height: Int) {
        guard let label = label(for: text) else { return (0, 0) }
        return (label.width, label.height)
    }

    /// Draws `text` with its top-left corner at (`x`, `y`) on a `width`×`height` canvas. Over an
    /// opaque `backdrop` of one colour (a panel), the label is mixed with it and written without
    /// blending: a software renderer then need not read what is under it.
    public func draw(_ text: String, x: Int, y: Int, color: Color, canvasWidth: Int, canvasHeight: Int, over backdrop: Color? = nil) {
        guard let label = label(for: text) else { return }
        // The whole canvas: a renderer before this one may have left a smaller viewport.
        glFunctions.glViewport!(0, 0, GLsizei(canvasWidth), GLsizei(canvasHeight))
        if backdrop == nil {
            glFunctions.glEnable!(GLenum(GL_BLEND))
            glFunctions.glBlendFuncSeparate!(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        }
        glFunctions.glUseProgram!(program.handle)
        let under = backdrop ?? Color(red: 0, green: 0, blue: 0, alpha: 0)
        glFunctions.glUniform4f!(backdropLocation, under.red, under.green, under.blue, under.alpha)
        glFunctions.glUniform4f!(labelRectLocation, Float(x), Float(y), Float(label.width), Float(label.height))
        glFunctions.glUniform2f!(canvasSizeLocation, Float(canvasWidth), Float(canvasHeight))
        glFunctions.glUniform4f!(textColorLocation, color.red, color.green, color.blue, color.alpha)
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE0))
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), label.texture)
        glFunctions.glBindVertexArray!(vertexArray)
        glFunctions.glDrawArrays!(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glFunctions.glBindVertexArray!(0)
        glFunctions.glDisable!(GLenum(GL_BLEND))
    }

    /// The size of ASCII `characters` drawn by `draw(characters:...)`.
    public func size(ofCharacters characters: [UInt8]) -> (width: Int, height: Int) {
        var width = 0, height = 0
        for byte in characters {
            guard let label = label(for: Self.character(byte)) else { continue }
            width += label.width
            height = max(height, label.height)
        }
        return (width, height)
    }

    /// Draws ASCII `characters` glyph by glyph, each from a cached one-character label: for text
    /// that changes every frame (levels), which would otherwise make a new string and a new texture
    /// for every value. Digits all have one width, so figures do not jitter.
    public func draw(characters: [UInt8], x: Int, y: Int, color: Color, canvasWidth: Int, canvasHeight: Int) {
        var left = x
        for byte in characters {
            let text = Self.character(byte)
            guard let label = label(for: text) else { continue }
            draw(text, x: left, y: y, color: color, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
            left += label.width
        }
    }

    /// One-character strings for ASCII, made once (a string per glyph per frame would allocate).
    private static let characters: [String] = (0 ..< 128).map { String(UnicodeScalar(UInt8($0))) }

    private static func character(_ byte: UInt8) -> String { characters[Int(byte & 0x7F)] }

    /// Call once per frame: forgets labels that have not been drawn for a while.
    public func endFrame() {
        frame += 1
        for (text, label) in labels where frame - label.lastUsedFrame > Self.idleFramesBeforeEviction {
            var texture = label.texture
            glFunctions.glDeleteTextures!(1, &texture)
            labels[text] = nil
        }
    }

    private func label(for text: String) -> Label? {
        if var label = labels[text] {
            label.lastUsedFrame = frame
            labels[text] = label
            return label
        }
        guard let rendered = font.render(text) else { return nil }
        var texture: GLuint = 0
        glFunctions.glGenTextures!(1, &texture)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), texture)
        glFunctions.glPixelStorei!(GLenum(GL_UNPACK_ALIGNMENT), 1)
        rendered.pixels.withUnsafeBytes { bytes in
            glFunctions.glTexImage2D!(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(rendered.width), GLsizei(rendered.height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
        // Labels are drawn at their own size on whole pixels: nearest keeps glyphs crisp.
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        let label = Label(texture: texture, width: rendered.width, height: rendered.height, lastUsedFrame: frame)
        labels[text] = label
        return label
    }
}
