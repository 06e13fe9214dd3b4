import CGL
import DecibarCore

/// Draws a spectrogram from a ring of columns (`SpectrogramState`, or a whole file's columns) into
/// a rectangle, through a color map (`Shaders/spectrogram.frag`). Only the columns made since the
/// last frame are uploaded.
public final class SpectrogramRenderer {
    private let program: ShaderProgram
    private var vertexArray: GLuint = 0
    private var columnTexture: GLuint = 0
    private var mapTexture: GLuint = 0
    private var size = (rows: 0, capacity: 0)
    private let locations: (columns: GLint, colorMap: GLint, newest: GLint, capacity: GLint, shown: GLint, rows: GLint, floor: GLint, vertical: GLint)

    public init(shaders: ShaderLibrary) throws(RenderError) {
        program = try ShaderProgram(library: shaders, vertex: "pass.vert", fragment: "spectrogram.frag")
        locations = (program.uniformLocation("columns"), program.uniformLocation("colorMap"), program.uniformLocation("newest"),
                     program.uniformLocation("capacity"), program.uniformLocation("shown"), program.uniformLocation("rowCount"),
                     program.uniformLocation("floorDB"), program.uniformLocation("vertical"))
        glFunctions.glGenVertexArrays!(1, &vertexArray)
        glFunctions.glGenTextures!(1, &columnTexture)
        glFunctions.glGenTextures!(1, &mapTexture)
        for (texture, wrapsInTime) in [(columnTexture, true), (mapTexture, false)] {
            glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), texture)
            // The ring wraps in time: the newest column blends into the oldest only across the seam.
            TextureSettings.apply(filter: GL_LINEAR, wrapT: wrapsInTime ? GL_REPEAT : GL_CLAMP_TO_EDGE)
        }
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
    }

    deinit {
        glFunctions.glDeleteTextures!(1, &columnTexture)
        glFunctions.glDeleteTextures!(1, &mapTexture)
        glFunctions.glDeleteVertexArrays!(1, &vertexArray)
    }

    /// The colors from the floor (first) to the top (last), as `ColorMap.table` gives them.
    public func setColorMap(_ colors: [Color]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(colors.count * 4)
        for color in colors {
            for part in [color.red, color.green, color.blue, 1] { bytes.append(UInt8(max(0, min(255, (part * 255).rounded())))) }
        }
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), mapTexture)
        glFunctions.glPixelStorei!(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glFunctions.glTexImage2D!(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(colors.count), 1, 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
    }

    /// Uploads the `count` columns of the ring up to `newest` (all of it when the size changed).
    /// `columns` holds `capacity` columns of `rows` values, column after column.
    public func upload(_ columns: [Float], rows: Int, capacity: Int, newest: Int, count: Int) {
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), columnTexture)
        glFunctions.glPixelStorei!(GLenum(GL_UNPACK_ALIGNMENT), 4)
        columns.withUnsafeBufferPointer { values in
            if size != (rows, capacity) {
                glFunctions.glTexImage2D!(GLenum(GL_TEXTURE_2D), 0, GL_R32F, GLsizei(rows), GLsizei(capacity), 0, GLenum(GL_RED), GLenum(GL_FLOAT), values.baseAddress)
                size = (rows, capacity)
            } else if count > 0 {
                // The changed columns end at `newest`, maybe across the ring's seam.
                let first = newest - min(count, capacity) + 1
                func send(from start: Int, through end: Int) {
                    glFunctions.glTexSubImage2D!(GLenum(GL_TEXTURE_2D), 0, 0, GLint(start), GLsizei(rows), GLsizei(end - start + 1), GLenum(GL_RED), GLenum(GL_FLOAT),
                                                 values.baseAddress! + start * rows)
                }
                if first >= 0 {
                    send(from: first, through: newest)
                } else {
                    send(from: capacity + first, through: capacity - 1)
                    send(from: 0, through: newest)
                }
            }
        }
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
    }

    /// Draws the `shown` columns ending at `newest` into `plot` of a `canvasWidth`×`canvasHeight`
    /// canvas: time across (newest at the right) or, `vertical`, down (newest at the bottom).
    public func draw(in plot: PixelRect, canvasWidth: Int, canvasHeight: Int, newest: Int, shown: Int, floorDB: Float, vertical: Bool) {
        guard size.capacity > 0, plot.width > 0, plot.height > 0 else { return }
        glFunctions.glViewport!(GLint(plot.x), GLint(canvasHeight - plot.y - plot.height), GLsizei(plot.width), GLsizei(plot.height))
        glFunctions.glUseProgram!(program.handle)
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE0))
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), columnTexture)
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE1))
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), mapTexture)
        glFunctions.glUniform1i!(locations.columns, 0)
        glFunctions.glUniform1i!(locations.colorMap, 1)
        glFunctions.glUniform1f!(locations.newest, Float(newest))
        glFunctions.glUniform1f!(locations.capacity, Float(size.capacity))
        glFunctions.glUniform1f!(locations.shown, Float(max(2, min(shown, size.capacity))))
        glFunctions.glUniform1f!(locations.rows, Float(size.rows))
        glFunctions.glUniform1f!(locations.floor, floorDB)
        glFunctions.glUniform1i!(locations.vertical, vertical ? 1 : 0)
        glFunctions.glBindVertexArray!(vertexArray)
        glFunctions.glDrawArrays!(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glFunctions.glBindVertexArray!(0)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE0))
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
        glFunctions.glViewport!(0, 0, GLsizei(canvasWidth), GLsizei(canvasHeight))
    }
}
