import CGL
import DecibarCore

/// Draws a spectrogram from a ring of columns (`SpectrogramState`, or a whole file's columns) into
/// a rectangle (`Shaders/spectrogram/spectrogram.frag`). Columns are colored as they are uploaded (only those
/// made since the last frame), so a pixel costs one lookup of an RGBA texture: on Mesa's software
/// renderer a float texture and a color map lookup per pixel cost four times the CPU of bars mode.
public final class SpectrogramRenderer {
    private let program: ShaderProgram
    private var vertexArray: GLuint = 0
    private var columnTexture: GLuint = 0
    private var size = (rows: 0, capacity: 0)
    /// The color map, 256 colors as RGBA bytes, and the colored columns being uploaded (reused).
    private var colors: [UInt8] = [UInt8](repeating: 255, count: 256 * 4)
    private var colored: [UInt8] = []
    private let locations: (columns: GLint, newest: GLint, capacity: GLint, shown: GLint, rows: GLint, vertical: GLint)

    public init(shaders: ShaderLibrary) throws(RenderError) {
        program = try ShaderProgram(library: shaders, vertex: "pass.vert", fragment: "spectrogram/spectrogram.frag")
        locations = (program.uniformLocation("columns"), program.uniformLocation("newest"), program.uniformLocation("capacity"),
                     program.uniformLocation("shown"), program.uniformLocation("rowCount"), program.uniformLocation("vertical"))
        glFunctions.glGenVertexArrays!(1, &vertexArray)
        glFunctions.glGenTextures!(1, &columnTexture)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), columnTexture)
        // The ring wraps in time: the newest column blends into the oldest only across the seam.
        TextureSettings.apply(filter: GL_NEAREST, wrapT: GL_REPEAT)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
    }

    deinit {
        glFunctions.glDeleteTextures!(1, &columnTexture)
        glFunctions.glDeleteVertexArrays!(1, &vertexArray)
    }

    /// The colors from the floor (first) to the top (last): 256 of them, as `ColorMap.table` gives them.
    public func setColorMap(_ map: [Color]) {
        for index in 0 ..< 256 {
            let color = map[index * map.count / 256]
            for (offset, part) in [color.red, color.green, color.blue, 1].enumerated() {
                colors[index * 4 + offset] = UInt8(max(0, min(255, (part * 255).rounded())))
            }
        }
    }

    /// Colors and uploads the `count` columns of the ring up to `newest` (all of it when the size
    /// changed). `columns` holds `capacity` columns of `rows` dB values, column after column;
    /// `floorDB` is the map's first color, 0 dBFS its last.
    public func upload(_ columns: [Float], rows: Int, capacity: Int, newest: Int, count: Int, floorDB: Float) {
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), columnTexture)
        glFunctions.glPixelStorei!(GLenum(GL_UNPACK_ALIGNMENT), 4)
        let whole = size != (rows, capacity)
        let changed = whole ? capacity : min(count, capacity)
        if changed > 0 {
            // The changed columns end at `newest`, maybe across the ring's seam.
            let first = whole ? 0 : newest - changed + 1
            if whole {
                color(columns, from: 0, through: capacity - 1, rows: rows, floorDB: floorDB)
                colored.withUnsafeBufferPointer { bytes in
                    glFunctions.glTexImage2D!(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(rows), GLsizei(capacity), 0, GLenum(GL_RGBA),
                                              GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
                }
                size = (rows, capacity)
            } else if first >= 0 {
                send(columns, from: first, through: newest, rows: rows, floorDB: floorDB)
            } else {
                send(columns, from: capacity + first, through: capacity - 1, rows: rows, floorDB: floorDB)
                send(columns, from: 0, through: newest, rows: rows, floorDB: floorDB)
            }
        }
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
    }

    private func send(_ columns: [Float], from start: Int, through end: Int, rows: Int, floorDB: Float) {
        color(columns, from: start, through: end, rows: rows, floorDB: floorDB)
        colored.withUnsafeBufferPointer { bytes in
            glFunctions.glTexSubImage2D!(GLenum(GL_TEXTURE_2D), 0, 0, GLint(start), GLsizei(rows), GLsizei(end - start + 1), GLenum(GL_RGBA),
                                         GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
    }

    /// Colors columns `start...end` into `colored` (grown only when it must be).
    private func color(_ columns: [Float], from start: Int, through end: Int, rows: Int, floorDB: Float) {
        let needed = (end - start + 1) * rows * 4
        if colored.count < needed { colored = [UInt8](repeating: 0, count: needed) }
        let scale = 255 / -floorDB
        columns.withUnsafeBufferPointer { values in
            colors.withUnsafeBufferPointer { map in
                colored.withUnsafeMutableBufferPointer { out in
                    for index in 0 ..< (end - start + 1) * rows {
                        let level = (values[start * rows + index] - floorDB) * scale
                        let entry = level <= 0 ? 0 : level >= 255 ? 255 : Int(level + 0.5)
                        for part in 0 ..< 4 { out[index * 4 + part] = map[entry * 4 + part] }
                    }
                }
            }
        }
    }

    /// Draws the `shown` columns ending at `newest` into `plot` of a `canvasWidth`×`canvasHeight`
    /// canvas: time across (newest at the right) or, `vertical`, down (newest at the bottom).
    public func draw(in plot: PixelRect, canvasWidth: Int, canvasHeight: Int, newest: Int, shown: Int, vertical: Bool) {
        guard size.capacity > 0, plot.width > 0, plot.height > 0 else { return }
        glFunctions.glViewport!(GLint(plot.x), GLint(canvasHeight - plot.y - plot.height), GLsizei(plot.width), GLsizei(plot.height))
        glFunctions.glUseProgram!(program.handle)
        glFunctions.glActiveTexture!(GLenum(GL_TEXTURE0))
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), columnTexture)
        glFunctions.glUniform1i!(locations.columns, 0)
        glFunctions.glUniform1f!(locations.newest, Float(newest))
        glFunctions.glUniform1f!(locations.capacity, Float(size.capacity))
        glFunctions.glUniform1f!(locations.shown, Float(max(2, min(shown, size.capacity))))
        glFunctions.glUniform1f!(locations.rows, Float(size.rows))
        glFunctions.glUniform1i!(locations.vertical, vertical ? 1 : 0)
        glFunctions.glBindVertexArray!(vertexArray)
        glFunctions.glDrawArrays!(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glFunctions.glBindVertexArray!(0)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
        glFunctions.glViewport!(0, 0, GLsizei(canvasWidth), GLsizei(canvasHeight))
    }
}
