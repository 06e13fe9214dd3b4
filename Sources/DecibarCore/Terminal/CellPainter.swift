/// Writes a `CellGrid` to a terminal as escape sequences, only the cells that changed since the
/// grid it wrote last: a cursor move where the next changed cell is not the next one along, the
/// colours only where they change, and the characters. A frame where nothing moved writes nothing.
public struct CellPainter: Sendable {
    public var colorDepth: TerminalColorDepth
    /// What the terminal shows, as far as we know: nil after `invalidate` (all is written again).
    private var shown: CellGrid?

    public init(colorDepth: TerminalColorDepth) {
        self.colorDepth = colorDepth
    }

    /// Forgets what the screen holds (a resize, a redraw asked for, a frame not delivered).
    public mutating func invalidate() { shown = nil }

    /// Appends what brings the screen from the last grid written to `grid`; false when nothing
    /// changed. `grid` counts as shown from now on.
    @discardableResult
    public mutating func paint(_ grid: CellGrid, into out: inout [UInt8]) -> Bool {
        let whole = shown.map { $0.width != grid.width || $0.height != grid.height } ?? true
        let start = out.count
        // Where the cursor is after the last character written (nil: unknown), and the colours in force.
        var cursor: (x: Int, y: Int)?
        var pen: (foreground: UInt32, background: UInt32, inverse: Bool)?
        let previous = whole ? nil : shown?.cells
        for y in 0..<grid.height {
            for x in 0..<grid.width {
                let cell = grid[x, y]
                if let previous, previous[y * grid.width + x] == cell { continue }
                if cursor.map({ $0.x != x || $0.y != y }) ?? true { Self.appendMove(x: x, y: y, to: &out) }
                // A space shows only its background: the pen's foreground can stay.
                let showsForeground = cell.scalar != " " || cell.inverse
                if pen.map({ ($0.foreground != cell.foreground && showsForeground) || $0.background != cell.background || $0.inverse != cell.inverse }) ?? true {
                    out.append(contentsOf: [0x1B, UInt8(ascii: "["), UInt8(ascii: "0")])
                    colorDepth.appendParameters(cell.foreground, background: false, to: &out)
                    colorDepth.appendParameters(cell.background, background: true, to: &out)
                    if cell.inverse { out.append(contentsOf: [UInt8(ascii: ";"), UInt8(ascii: "7")]) }
                    out.append(UInt8(ascii: "m"))
                    pen = (cell.foreground, cell.background, cell.inverse)
                }
                Self.appendUTF8(cell.scalar, to: &out)
                // The last column leaves the cursor where it is (autowrap is off).
                cursor = x + 1 < grid.width ? (x + 1, y) : nil
            }
        }
        if pen != nil { out.append(contentsOf: Self.reset) }
        shown = grid
        return out.count > start
    }

    static let reset: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")]

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
