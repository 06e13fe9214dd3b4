import DecibarCore
import Testing

/// The terminal's pure parts with exact bytes: what the painter writes, what the parser reads,
/// how bars, braille and the scrubber fill cells.
@Suite("Terminal cells")
struct TerminalCoreTests {
    @Test("The painter writes every cell first, then only what changed, with a move where the next change is not the next cell")
    func painterWritesChanges() {
        var painter = CellPainter(colorDepth: .trueColor)
        var grid = CellGrid(width: 3, height: 2)
        var out: [UInt8] = []
        #expect(painter.paint(grid, into: &out))
        #expect(String(decoding: out, as: UTF8.self) == "\u{1B}[1;1H\u{1B}[0;39;49m   \u{1B}[2;1H   ")
        out.removeAll()
        #expect(!painter.paint(grid, into: &out))
        #expect(out.isEmpty)
        // Only the foreground changed: only the foreground is written.
        grid[2, 1] = TerminalCell("\u{2588}", foreground: 0xFF8000)
        #expect(painter.paint(grid, into: &out))
        #expect(String(decoding: out, as: UTF8.self) == "\u{1B}[2;3H\u{1B}[38;2;255;128;0m\u{2588}")
        out.removeAll()
        painter.colorDepth = .palette256
        painter.invalidate()
        grid.fill(TerminalCell("x", foreground: 0xFF0000, inverse: true), width: 1, height: 1)
        painter.paint(grid, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "\u{1B}[1;1H\u{1B}[0;38;5;196;49;7mx")
        out.removeAll()
        grid.fill(TerminalCell("x", foreground: 0xFF0000, inverse: false), width: 1, height: 1)
        painter.paint(grid, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "\u{1B}[1;1H\u{1B}[27mx")
    }

    @Test("The painter moves by the shortest way: along the row, down, to the line's start; a cell between with the same pen is written again")
    func painterMovesShort() {
        var painter = CellPainter(colorDepth: .trueColor)
        var grid = CellGrid(width: 20, height: 12)
        var out: [UInt8] = []
        painter.paint(grid, into: &out)
        out.removeAll()
        let block = TerminalCell("\u{2588}", foreground: 0xFF8000)
        // Row 1: cells 2 and 4 (one blank between, same background: written again), then 15 (a move along).
        grid[2, 1] = block
        grid[4, 1] = block
        grid[15, 1] = block
        // Row 2, column 16: one down (the cursor is at 16 after 15).
        grid[16, 2] = block
        // Row 11, column 0: down 9 and a carriage return.
        grid[0, 11] = block
        painter.paint(grid, into: &out)
        #expect(String(decoding: out, as: UTF8.self)
            == "\u{1B}[2;3H\u{1B}[38;2;255;128;0m\u{2588} \u{2588}\u{1B}[10C\u{2588}\u{1B}[B\u{2588}\u{1B}[9B\r\u{2588}")
    }

    @Test("Colour depth from the environment", arguments: [
        (["TERM": "xterm-256color", "COLORTERM": "truecolor"], TerminalColorDepth.trueColor),
        (["TERM": "xterm-256color"], .palette256), (["TERM": "xterm"], .palette16), (["TERM": "dumb"], .none),
        (["TERM": "xterm-kitty"], .trueColor), (["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"], .none),
        (["TERM": "xterm", "NO_COLOR": ""], .palette16),
    ])
    func colorDepth(environment: [String: String], depth: TerminalColorDepth) {
        #expect(TerminalColorDepth.from(environment: environment) == depth)
    }

    @Test("The parser reads keys, SGR mouse reports and answers, and keeps a split sequence until its end")
    func parser() {
        var parser = TerminalInputParser()
        #expect(parser.feed(Array("q?A \u{03}".utf8)) == [.key(KeyChord("q")), .key(KeyChord("/", .shift)), .key(KeyChord("a", .shift)),
                                                          .key(KeyChord("space")), .key(KeyChord("c", .ctrl))])
        #expect(parser.feed(Array("\u{1B}[<0;31;38".utf8)).isEmpty)
        #expect(parser.feed(Array("M\u{1B}[<32;40;38M\u{1B}[<0;90;38m\u{1B}[<65;5;6M".utf8)) == [
            .mouse(TerminalMouse(action: .press, button: 0, column: 30, row: 37)),
            .mouse(TerminalMouse(action: .motion, button: 0, column: 39, row: 37)),
            .mouse(TerminalMouse(action: .release, button: 0, column: 89, row: 37)),
            .mouse(TerminalMouse(action: .wheelDown, button: 3, column: 4, row: 5)),
        ])
        #expect(parser.feed(Array("\u{1B}[?2026;2$y\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[4;780;1200t\u{1B}[?62;4;22c".utf8)) == [
            .modeReport(mode: 2026, state: 2), .graphicsReply(ok: true), .textAreaPixels(width: 1200, height: 780), .primaryAttributes([62, 4, 22]),
        ])
        #expect(parser.feed(Array("\u{1B}[A\u{1B}[1;5C\u{1B}OP\u{1B}[5~".utf8)) == [.key(KeyChord("up")), .key(KeyChord("right", .ctrl)),
                                                                              .key(KeyChord("f1")), .key(KeyChord("pgup"))])
        #expect(parser.feed([0x1B]).isEmpty)
        #expect(parser.isWaiting)
        #expect(parser.flush() == [.key(KeyChord("esc"))])
    }

    @Test("A bar grows by eighths: half of 2 rows is one full cell; centred, the lower half is the mirror, colours swapped")
    func barEighths() {
        var grid = CellGrid(width: 1, height: 2)
        TextBars.draw([0.5625], in: PixelRect(x: 0, y: 0, width: 1, height: 2), orientation: .bottom, theme: .default, into: &grid)
        // 0.5625 × 16 eighths = 9: a full bottom cell and one eighth above.
        #expect(grid[0, 1].scalar == "\u{2588}" && grid[0, 0].scalar == "\u{2581}")
        var centred = CellGrid(width: 1, height: 4)
        TextBars.draw([0.75], in: PixelRect(x: 0, y: 0, width: 1, height: 4), orientation: .center, theme: .default, into: &centred)
        // 2 rows each way, 12 eighths: one full cell and a half each way from the middle.
        #expect(centred[0, 1].scalar == "\u{2588}" && centred[0, 0].scalar == "\u{2584}" && !centred[0, 0].inverse)
        #expect(centred[0, 2].scalar == "\u{2588}" && centred[0, 3].scalar == "\u{2584}" && centred[0, 3].inverse)
    }

    @Test("Braille dots: bit per dot as the standard numbers them")
    func braille() {
        var dots = BrailleDots(columns: 1, rows: 1)
        dots.set(x: 0, y: 0)
        dots.set(x: 1, y: 3)
        var grid = CellGrid(width: 1, height: 1)
        dots.draw(atX: 0, y: 0, into: &grid) { _, _ in 0xFFFFFF }
        #expect(grid[0, 0].scalar == "\u{2881}")
    }

    @Test("A cell of the scrubber stands for the time at its middle")
    func scrubberCells() {
        let area = PixelRect(x: 0, y: 36, width: 120, height: 4)
        let geometry = TextScrubber.geometry(area, duration: 118)
        #expect(geometry.time(forX: 30.5) == 29.5)
        #expect(TextScrubber.rows(forHeight: 40) == (3, 4))
    }
}
