/// Writes a `CellGrid` to a terminal as escape sequences, only the cells that changed since the
/// grid it wrote last: a cursor move where the next changed cell is not the next one along, the
/// colours only where they change, and the characters. A frame where nothing moved writes nothing.
public struct CellPainter: Sendable {
    public var colorDepth: TerminalColorDepth
    /// What the terminal shows, as far as we know: nil after `invalidate` (all is written again).
    /// Kept apart from the grids painted and changed cell by cell, so no frame copies the screen.
    private var shown: CellGrid?
    /// The colours in force on the terminal (nil: unknown). They stay between frames: nothing
    /// else writes colours without `invalidate`.
    private var pen: Pen?

    private struct Pen: Equatable {
        var foreground: UInt32
        var background: UInt32
        var inverse: Bool
    }

    public init(colorDepth: TerminalColorDepth) {
        self.colorDepth = colorDepth
    }

    /// Forgets what the screen holds (a resize, a redraw asked for, a frame not delivered).
    public mutating func invalidate() {
        shown = nil
        pen = nil
    }

    /// Appends what brings the screen from the last grid written to `grid`; false when nothing
    /// changed. `grid` counts as shown from now on.
    @discardableResult
    public mutating func paint(_ grid: CellGrid, into out: inout [UInt8]) -> Bool {
        let whole = shown.map { $0.width != grid.width || $0.height != grid.height } ?? true
        let start = out.count
        // What was shown, taken out so it is changed in place (no copy of the screen a frame).
        var screen = whole ? CellGrid(width: grid.width, height: grid.height) : shown!
        shown = nil
        let width = grid.width
        // Where the cursor is after the last character written (nil: unknown: other writes move it).
        var cursor: (x: Int, y: Int)?
        screen.cells.withUnsafeMutableBufferPointer { previous in
            grid.cells.withUnsafeBufferPointer { cells in
                for y in 0..<grid.height {
                    let row = y * width
                    var x = 0
                    while x < width {
                        let cell = cells[row + x]
                        if !whole && previous[row + x] == cell {
                            x += 1
                            continue
                        }
                        previous[row + x] = cell
                        if let at = cursor, at.y == y, at.x < x, fillsGap(cells, row: row, from: at.x, to: x) {
                            // A cell or two that look the same with this pen: rewriting them is shorter than a move.
                            for gap in at.x ..< x { Self.appendUTF8(cells[row + gap].scalar, to: &out) }
                        } else if cursor.map({ $0.x != x || $0.y != y }) ?? true {
                            Self.appendMove(from: cursor, x: x, y: y, to: &out)
                        }
                        appendPen(for: cell, to: &out)
                        Self.appendUTF8(cell.scalar, to: &out)
                        // The last column leaves the cursor where it is (autowrap is off).
                        cursor = x + 1 < width ? (x + 1, y) : nil
                        x += 1
                    }
                }
            }
        }
        shown = screen
        return out.count > start
    }

    /// Whether the cells from `from` up to `to` can be written again with the pen in force, in
    /// fewer bytes than the move past them.
    private func fillsGap(_ cells: UnsafeBufferPointer<TerminalCell>, row: Int, from: Int, to: Int) -> Bool {
        guard to - from <= 2, let pen else { return false }
        for x in from ..< to {
            let cell = cells[row + x]
            let showsForeground = cell.scalar != " " || cell.inverse
            guard cell.scalar.value < 0x80 || to - from == 1, cell.background == pen.background, cell.inverse == pen.inverse,
                  !showsForeground || cell.foreground == pen.foreground else { return false }
        }
        return true
    }

    /// SGR for what differs from the pen in force: the whole pen (from a reset) when it is unknown.
    private mutating func appendPen(for cell: TerminalCell, to out: inout [UInt8]) {
        // A space shows only its background: the pen's foreground can stay.
        let showsForeground = cell.scalar != " " || cell.inverse
        let wanted = Pen(foreground: showsForeground ? cell.foreground : pen?.foreground ?? cell.foreground,
                         background: cell.background, inverse: cell.inverse)
        guard wanted != pen else { return }
        out.append(contentsOf: [0x1B, UInt8(ascii: "[")])
        let first = out.count
        if let pen {
            if wanted.foreground != pen.foreground { colorDepth.appendParameters(wanted.foreground, background: false, to: &out) }
            if wanted.background != pen.background { colorDepth.appendParameters(wanted.background, background: true, to: &out) }
            if wanted.inverse != pen.inverse { out.append(contentsOf: wanted.inverse ? Self.inverseOn : Self.inverseOff) }
        } else {
            out.append(UInt8(ascii: "0"))
            colorDepth.appendParameters(wanted.foreground, background: false, to: &out)
            colorDepth.appendParameters(wanted.background, background: true, to: &out)
            if wanted.inverse { out.append(contentsOf: Self.inverseOn) }
        }
        // Every parameter is written with the ";" before it: the first needs none.
        if out.count > first && out[first] == UInt8(ascii: ";") { out.remove(at: first) }
        out.append(UInt8(ascii: "m"))
        pen = wanted
    }

    private static let inverseOn = Array(";7".utf8)
    private static let inverseOff = Array(";27".utf8)
    static let reset: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")]

    /// The shortest move from `cursor` (nil: unknown) to the cell: along the row, down or up, or to
    /// the place itself.
    static func appendMove(from cursor: (x: Int, y: Int)?, x: Int, y: Int, to out: inout [UInt8]) {
        guard let cursor else { return appendMove(x: x, y: y, to: &out) }
        let absolute = 4 + digits(y + 1) + digits(x + 1)
        var relative = 0
        if y != cursor.y { relative += 3 + (abs(y - cursor.y) == 1 ? 0 : digits(abs(y - cursor.y))) }
        if x != cursor.x { relative += x == 0 ? 1 : 3 + (abs(x - cursor.x) == 1 ? 0 : digits(abs(x - cursor.x))) }
        guard relative < absolute else { return appendMove(x: x, y: y, to: &out) }
        if y != cursor.y { appendRelative(abs(y - cursor.y), final: y > cursor.y ? "B" : "A", to: &out) }
        if x != cursor.x {
            if x == 0 {
                out.append(0x0D)
            } else {
                appendRelative(abs(x - cursor.x), final: x > cursor.x ? "C" : "D", to: &out)
            }
        }
    }

    private static func appendRelative(_ count: Int, final: Unicode.Scalar, to out: inout [UInt8]) {
        out.append(contentsOf: [0x1B, UInt8(ascii: "[")])
        if count != 1 { TerminalColorDepth.appendNumber(count, to: &out) }
        out.append(UInt8(final.value))
    }

    private static func digits(_ value: Int) -> Int { value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : 4 }

    /// `CSI row ; column H`, both counted from 1.
    public static func appendMove(x: Int, y: Int, to out: inout [UInt8]) {
        out.append(contentsOf: [0x1B, UInt8(ascii: "[")])
        TerminalColorDepth.appendNumber(y + 1, to: &out)
        out.append(UInt8(ascii: ";"))
        TerminalColorDepth.appendNumber(x + 1, to: &out)
        out.append(UInt8(ascii: "H"))
    }

    static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case ..<0x80: out.append(UInt8(value))
        case ..<0x800:
            out.append(UInt8(0xC0 | value >> 6))
            out.append(UInt8(0x80 | value & 0x3F))
        case ..<0x10000:
            out.append(UInt8(0xE0 | value >> 12))
            out.append(UInt8(0x80 | value >> 6 & 0x3F))
            out.append(UInt8(0x80 | value & 0x3F))
        default:
            out.append(UInt8(0xF0 | value >> 18))
            out.append(UInt8(0x80 | value >> 12 & 0x3F))
            out.append(UInt8(0x80 | value >> 6 & 0x3F))
            out.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
