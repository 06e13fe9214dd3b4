import DecibarCore
import DecibarRender

/// Draws the captions showing at a moment: centered over the bottom of the bars' area, wrapped
/// within the safe area (90 % of the width), white on a dark box so they read on any picture,
/// the words already sung (where the file times them) in the highlight color.
final class CaptionView {
    private let text: TextRenderer
    private let rects: RectRenderer
    /// At most this many lines a caption; the rest is cut with "…".
    static let maximumLines = 3
    static let box = Color(red: 0, green: 0, blue: 0, alpha: 0.62)
    static let words = Color(red: 1, green: 1, blue: 1)
    static let sung = Color(red: 1, green: 0.8, blue: 0.25)
    /// Wrapped lines of the captions last shown, by their start and text: wrapping measures text.
    private var wrapped: [(key: String, lines: CaptionLines)] = []

    /// Text a twentieth of the picture's smaller side: 54 px at 1080p, in any shape.
    static func pixelSize(width: Int, height: Int) -> Int { max(14, min(width, height) / 20) }

    init(shaders: ShaderLibrary, width: Int, height: Int) throws(RenderError) {
        text = try TextRenderer(shaders: shaders, pixelSize: Self.pixelSize(width: width, height: height))
        rects = try RectRenderer(shaders: shaders)
    }

    /// Draws `captions` at `time`, their last line's bottom at `bottom` pixels from the top.
    func draw(_ captions: [Caption], at time: Double, bottom: Int, canvasWidth: Int, canvasHeight: Int) {
        defer { text.endFrame() }
        guard !captions.isEmpty else { return }
        let safeWidth = canvasWidth * 9 / 10
        let padding = max(4, text.pixelSize / 4)
        var drawn: [(caption: Caption, lines: CaptionLines)] = []
        var kept: [(key: String, lines: CaptionLines)] = []
        for caption in captions {
            let key = "\(caption.start)\u{0}\(caption.text)"
            let lines = wrapped.first { $0.key == key }?.lines
                ?? CaptionLines(caption.text, width: safeWidth - 2 * padding, maximumLines: Self.maximumLines) { [text] in text.size(of: $0).width }
            kept.append((key, lines))
            drawn.append((caption, lines))
        }
        wrapped = kept
        let lineHeight = text.size(of: "Ag").height
        let count = drawn.reduce(0) { $0 + $1.lines.lines.count }
        var top = bottom - count * lineHeight
        for (caption, lines) in drawn {
            let sung = caption.sungBytes(at: time)
            for line in lines.lines {
                let size = text.size(of: line.text)
                let x = (canvasWidth - size.width) / 2
                rects.draw([(PixelRect(x: x - padding, y: top, width: size.width + 2 * padding, height: lineHeight), Self.box)],
                           canvasWidth: canvasWidth, canvasHeight: canvasHeight)
                text.draw(line.text, x: x, y: top, color: Self.words, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
                if let sung, sung > line.offset {
                    // The sung part drawn again over the line, from its start: the same glyphs in place.
                    let bytes = Array(line.text.utf8)
                    let prefix = String(decoding: bytes.prefix(sung - line.offset), as: UTF8.self)
                    if !prefix.isEmpty {
                        text.draw(prefix, x: x, y: top, color: Self.sung, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
                    }
                }
                top += lineHeight
            }
        }
    }
}
