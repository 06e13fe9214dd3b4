/// A caption broken into the lines it is drawn in: its own line breaks kept, long lines wrapped
/// between words to fit a width, a word wider than the width broken between characters, and at
/// most `maximumLines`, the last ending in "…" when some of the text is left out.
public struct CaptionLines: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        public var text: String
        /// Where the line's text starts in the caption's text, in UTF-8 bytes (for the sung part).
        public var offset: Int

        public init(text: String, offset: Int) {
            self.text = text
            self.offset = offset
        }
    }

    public let lines: [Line]

    /// - Parameter measure: the drawn width of a piece of text, in the same unit as `width`.
    public init(_ text: String, width: Int, maximumLines: Int, measure: (String) -> Int) {
        var lines: [Line] = []
        var offset = 0
        paragraphs: for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            defer { offset += paragraph.utf8.count + 1 }
            var line = "", lineOffset = offset, position = offset
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                defer { position += word.utf8.count + 1 }
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if measure(candidate) <= width || line.isEmpty && measure(String(word)) <= width {
                    if line.isEmpty { lineOffset = position }
                    line = candidate
                    continue
                }
                if !line.isEmpty { lines.append(Line(text: line, offset: lineOffset)) }
                // A word wider than the whole width is cut between characters.
                var piece = "", pieceOffset = position
                for character in word {
                    if !piece.isEmpty && measure(piece + String(character)) > width {
                        lines.append(Line(text: piece, offset: pieceOffset))
                        pieceOffset += piece.utf8.count
                        piece = ""
                    }
                    piece.append(character)
                }
                line = piece
                lineOffset = pieceOffset
                if lines.count > maximumLines { break paragraphs }
            }
            if !line.isEmpty { lines.append(Line(text: line, offset: lineOffset)) }
            if lines.count > maximumLines { break }
        }
        if lines.count > maximumLines {
            // The last line kept says that more was left out, and still fits.
            lines.removeLast(lines.count - maximumLines)
            var last = lines[maximumLines - 1].text
            while !last.isEmpty && measure(last + "…") > width { last.removeLast() }
            lines[maximumLines - 1].text = last + "…"
        }
        self.lines = lines
    }
}
