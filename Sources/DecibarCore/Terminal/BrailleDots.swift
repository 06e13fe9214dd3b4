/// A canvas of braille dots: each cell holds 2×4 of them (U+2800 to U+28FF), so a terminal row
/// of 80 cells plots 160 points across. Dots are set, then drawn into a grid's cells in a colour.
public struct BrailleDots: Sendable {
    public private(set) var columns: Int
    public private(set) var rows: Int
    /// One byte of dot bits a cell, row after row.
    private var bits: [UInt8]

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        bits = Array(repeating: 0, count: self.columns * self.rows)
    }

    /// Dots across and down.
    public var dotWidth: Int { columns * 2 }
    public var dotHeight: Int { rows * 4 }

    /// Clears every dot, at a new size if given (storage kept when the size is the same).
    public mutating func clear(columns: Int? = nil, rows: Int? = nil) {
        let (newColumns, newRows) = (max(0, columns ?? self.columns), max(0, rows ?? self.rows))
        if newColumns * newRows != bits.count { bits = Array(repeating: 0, count: newColumns * newRows) } else {
            for index in bits.indices { bits[index] = 0 }
        }
        (self.columns, self.rows) = (newColumns, newRows)
    }

    /// The bit of each dot of a cell: braille numbers dots 1-2-3-7 down the left, 4-5-6-8 down the right.
    private static let dotBits: [[UInt8]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]

    /// Sets the dot at x, y (dots from the top left); outside the canvas nothing happens.
    public mutating func set(x: Int, y: Int) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        bits[(y / 4) * columns + x / 2] |= Self.dotBits[y % 4][x % 2]
    }

    /// Sets the dots from y0 to y1 (either order) in column x.
    public mutating func setColumn(x: Int, from y0: Int, to y1: Int) {
        for y in min(y0, y1)...max(y0, y1) { set(x: x, y: y) }
    }

    /// Whether the cell at column, row has any dot.
    public func hasDots(column: Int, row: Int) -> Bool { bits[row * columns + column] != 0 }

    /// Draws the cells that have dots at x, y of `grid`, coloured by `color` (column, row of the canvas).
    public func draw(atX x: Int, y: Int, into grid: inout CellGrid, color: (Int, Int) -> UInt32) {
        for row in 0..<rows {
            for column in 0..<columns {
                let dots = bits[row * columns + column]
                guard dots != 0, grid.contains(x: x + column, y: y + row) else { continue }
                grid[x + column, y + row] = TerminalCell(Unicode.Scalar(0x2800 + UInt32(dots))!, foreground: color(column, row),
                                                         background: grid[x + column, y + row].background)
            }
        }
    }
}
