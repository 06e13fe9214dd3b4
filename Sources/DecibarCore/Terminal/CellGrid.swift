/// A terminal's screen as the pictures draw it: `width`×`height` cells, row after row. Drawn whole
/// each frame; `CellPainter` writes only what changed since the last frame it wrote.
public struct CellGrid: Equatable, Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    public internal(set) var cells: [TerminalCell]

    public init(width: Int, height: Int, filling cell: TerminalCell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: cell, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> TerminalCell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Whether x, y is on the grid.
    public func contains(x: Int, y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height }

    /// Every cell `cell`, at a new size if given (the storage is kept when the size is the same).
    public mutating func fill(_ cell: TerminalCell, width: Int? = nil, height: Int? = nil) {
        let (newWidth, newHeight) = (max(0, width ?? self.width), max(0, height ?? self.height))
        if newWidth * newHeight != cells.count {
            cells = Array(repeating: cell, count: newWidth * newHeight)
        } else {
            for index in cells.indices { cells[index] = cell }
        }
        (self.width, self.height) = (newWidth, newHeight)
    }

    /// Fills the cells of a rectangle (clipped to the grid).
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, with cell: TerminalCell) {
        for row in max(0, y)..<min(self.height, y + height) where width > 0 {
            for column in max(0, x)..<min(self.width, x + width) { self[column, row] = cell }
        }
    }

    /// Writes `text` from x on row y, one cell a character (those past the edge are cut), and
    /// returns the column after it. Characters that take two cells or none are replaced by `?`.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, foreground: UInt32, background: UInt32? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        var column = x
        for scalar in text.unicodeScalars {
            guard column < width else { break }
            if column >= 0 {
                let shown = Self.isSingleWidth(scalar) ? scalar : "?"
                self[column, y] = TerminalCell(shown, foreground: foreground, background: background ?? self[column, y].background)
            }
            column += 1
        }
        return column
    }

    /// Characters a terminal shows in one cell: not controls, combining marks, or East Asian
    /// wide letters (which would shift the rest of the row).
    static func isSingleWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return false }
        if (0x300..<0x370).contains(value) || (0x200B...0x200F).contains(value) { return false }
        if (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
            || (0xFFE0...0xFFE6).contains(value) || value >= 0x1F300 { return false }
        return true
    }
}
