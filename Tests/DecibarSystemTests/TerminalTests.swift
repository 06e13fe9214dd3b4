import DecibarCore
import Foundation
import Glibc
import Testing

/// `decibar term` in real terminals: tmux (read back with capture-pane) for the text pictures,
/// the player's mouse and the terminal restored; a pty for the escape sequences themselves;
/// xterm in VT340 mode, kitty and foot (under sway) for sixel and kitty images, read off screenshots.
@Suite("Terminal: decibar term", .serialized)
struct TerminalTests {
    /// Cells holding an eighth block (U+2581 to U+2588), as column, row.
    static func blockCells(_ screen: String) -> [(column: Int, row: Int)] {
        cells(screen) { (0x2581...0x2588).contains($0.value) }
    }

    static func brailleCells(_ screen: String) -> [(column: Int, row: Int)] {
        cells(screen) { (0x2801...0x28FF).contains($0.value) }
    }

    static func cells(_ screen: String, where matches: (Unicode.Scalar) -> Bool) -> [(column: Int, row: Int)] {
        var found: [(Int, Int)] = []
        for (row, line) in screen.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (column, scalar) in line.unicodeScalars.enumerated() where matches(scalar) { found.append((column, row)) }
        }
        return found
    }

    /// The terminal's modes as tmux keeps them: the alternate screen, the cursor, mouse reports.
    static func modes(_ tmux: PrivateTmux) throws -> [String] {
        try ["alternate_on", "cursor_flag", "mouse_any_flag", "mouse_button_flag", "mouse_sgr_flag", "wrap_flag"].map { "\($0)=\(try tmux.value($0))" }
    }

    /// A tone playing into the server's default output until the test ends.
    static func tone(on server: PrivatePulseServer, leftOnly: Bool = false) throws -> (Process, String) {
        let folder = try TestRig.temporaryDirectory()
        let tone = folder + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 120)
        if leftOnly {
            let left = folder + "/left.wav"
            let made = try TestRig.run("sox", [tone, left, "remix", "1", "0"])
            guard made.status == 0 else { throw RigError("sox: \(made.error)") }
            return (try server.play(left), folder)
        }
        return (try server.play(tone), folder)
    }

    static func environment(_ server: PrivatePulseServer) -> [String: String] {
        // (The test run sets NO_COLOR for its own output; empty, it means nothing.)
        server.environment.merging(["COLORTERM": "truecolor", "NO_COLOR": ""]) { $1 }
    }

    @Test("Bars in tmux: eighth blocks in 24-bit colour; a resize to 80x24 redraws at 80 columns; q leaves the shell as it was")
    func barsResizeQuit() throws {
        let server = try PrivatePulseServer()
        let (player, _) = try Self.tone(on: server)
        defer { player.terminate() }
        let tmux = try PrivateTmux(columns: 120, rows: 40, environment: Self.environment(server))
        let before = try Self.modes(tmux)
        try tmux.run("\(TestRig.decibar) term --mode bars")
        #expect(try TestRig.wait(timeout: 15) {
            let (screen, text) = (try tmux.capture(escapes: true), try tmux.capture())
            return screen.contains("\u{1B}[38;2;") && Self.blockCells(text).count > 200
        }, "no bars in 24-bit colour: \(((try? tmux.capture(escapes: true)) ?? "").prefix(2000))")
        let running = try Self.modes(tmux)
        #expect(running.contains("alternate_on=1") && running.contains("cursor_flag=0") && running.contains("mouse_sgr_flag=1"), "\(running)")

        try tmux.resize(columns: 80, rows: 24)
        // The tallest bar is in the middle of the 80 columns (drawn for 120, it would be at 60).
        var tallest = -1
        #expect(try TestRig.wait(timeout: 5) {
            let cells = Self.blockCells(try tmux.capture())
            let columns = Dictionary(grouping: cells, by: \.column).mapValues(\.count)
            tallest = columns.max { $0.value < $1.value || ($0.value == $1.value && abs($0.key - 40) > abs($1.key - 40)) }?.key ?? -1
            return (37...42).contains(tallest) && cells.allSatisfy { $0.row < 24 }
        }, "after the resize the tallest bar is at column \(tallest)")

        try tmux.key("q")
        #expect(try TestRig.wait(timeout: 5) { try tmux.commandPID() == nil }, "q did not end it")
        let after = try tmux.capture()
        #expect(after.contains(PrivateTmux.prompt + TestRig.decibar + " term --mode bars"), "the shell's screen did not come back: \(after)")
        #expect(Self.blockCells(after).isEmpty)
        let restored = try Self.modes(tmux)
        #expect(restored == before)
    }

    @Test("Scope: a mono tone is a vertical line of braille dots; the left channel alone tilts it to the upper-left diagonal")
    func scope() throws {
        for leftOnly in [false, true] {
            let server = try PrivatePulseServer()
            let (player, _) = try Self.tone(on: server, leftOnly: leftOnly)
            defer { player.terminate() }
            let tmux = try PrivateTmux(columns: 120, rows: 40, environment: Self.environment(server))
            try tmux.run("\(TestRig.decibar) term --mode scope")
            var cells: [(column: Int, row: Int)] = []
            #expect(try TestRig.wait(timeout: 15) {
                cells = Self.brailleCells(try tmux.capture())
                return Set(cells.map(\.row)).count >= 8
            }, "no braille trace: \((try? tmux.capture()) ?? "")")
            let columns = cells.map(\.column), rows = cells.map(\.row)
            // No trace (a slow start) fails this test, not the whole test process.
            let spread = try #require(columns.max(), "no braille cells") - (columns.min() ?? 0)
            if leftOnly {
                // Down the rows, the columns move right: the diagonal from the upper left.
                let meanColumn = Double(columns.reduce(0, +)) / Double(cells.count), meanRow = Double(rows.reduce(0, +)) / Double(cells.count)
                let covariance = zip(columns, rows).map { (Double($0) - meanColumn) * (Double($1) - meanRow) }.reduce(0, +)
                let spreadRows = rows.map { pow(Double($0) - meanRow, 2) }.reduce(0, +)
                let spreadColumns = columns.map { pow(Double($0) - meanColumn, 2) }.reduce(0, +)
                let correlation = covariance / sqrt(spreadRows * spreadColumns)
                #expect(spread >= 10 && correlation > 0.9, "left alone: columns spread \(spread), correlation \(correlation)")
            } else {
                #expect(spread <= 2, "mono: the trace spreads over \(spread) columns")
            }
            try tmux.key("q")
            #expect(try TestRig.wait(timeout: 5) { try tmux.commandPID() == nil })
        }
    }

    @Test("The player: a press at 25 % of the scrubber dragged to 75 % plays from 75 % of the track, as the time label and playerctl say")
    func playerDrag() throws {
        let server = try PrivatePulseServer()
        let bus = try PrivateSessionBus()
        let folder = try TestRig.temporaryDirectory()
        let song = folder + "/song.flac"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", try MusicLibrary.path(of: MusicLibrary.songs[1]), song])
        #expect(made.status == 0, "\(made.error)")
        let duration = 64.0
        let tmux = try PrivateTmux(columns: 120, rows: 40, environment: Self.environment(server).merging(bus.environment) { $1 })
        try tmux.run("\(TestRig.decibar) term \(song)")
        // The scrubber's rows: the waveform in rows 36-38 (1-based 37-39), its columns 1-118.
        #expect(try TestRig.wait(timeout: 15) { try tmux.capture().contains(" / 1:04") }, "no time label: \((try? tmux.capture()) ?? "")")
        #expect(try TestRig.wait(timeout: 10) { Self.brailleCells(try tmux.capture()).contains { $0.row == 37 } }, "no waveform")
        func report(_ code: Int, _ column: Int, _ final: String) -> [UInt8] { Array("\u{1B}[<\(code);\(column + 1);38\(final)".utf8) }
        let (from, to) = (30, 89)
        try tmux.send(bytes: report(0, from, "M"))
        for column in stride(from: from, through: to, by: 6) {
            try tmux.send(bytes: report(32, column, "M"))
            Thread.sleep(forTimeInterval: 0.03)
        }
        try tmux.send(bytes: report(32, to, "M"))
        let released = TestRig.now()
        try tmux.send(bytes: report(0, to, "m"))
        Thread.sleep(forTimeInterval: 0.5)
        let position = try TestRig.run("playerctl", ["position"], environment: bus.environment)
        let read = TestRig.now()
        let heard = Double(String(decoding: position.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        // Cell 89's middle is 75 % of the waveform's 118 columns; one cell is 64/118 s.
        let target = (Double(to) + 0.5 - 1) / 118 * duration
        #expect(abs(heard - target) <= duration / 118 + (read - released) + 0.2, "playerctl says \(heard) s, the drop was at \(target) s")
        let label = try tmux.capture().split(separator: "\n").last { $0.contains(" / 1:04") }.map(String.init) ?? ""
        let shown = label.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map { part -> Double in
            let pieces = part.split(separator: ":").compactMap { Double($0) }
            return pieces.count == 2 ? pieces[0] * 60 + pieces[1] : -1
        } ?? -1
        #expect(abs(shown - target) <= duration / 118 + 2, "the label says \(label)")
        try tmux.key("q")
        #expect(try TestRig.wait(timeout: 5) { try tmux.commandPID() == nil })
    }

    @Test("Over a pipe: one line and status 2, the terminal untouched")
    func pipeRefused() throws {
        let result = try TestRig.run(TestRig.decibar, ["term"])
        #expect(result.status == 2)
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("not a terminal"), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test("SIGTERM and SIGHUP restore the terminal: the main screen, the cursor, no mouse reports; the status says which signal")
    func signalsRestore() throws {
        let server = try PrivatePulseServer()
        let (player, _) = try Self.tone(on: server)
        defer { player.terminate() }
        let tmux = try PrivateTmux(columns: 100, rows: 30, environment: Self.environment(server))
        let before = try Self.modes(tmux)
        for (signal, status) in [(SIGTERM, 143), (SIGHUP, 129)] {
            try tmux.run("\(TestRig.decibar) term; echo \"ended $?\"")
            #expect(try TestRig.wait(timeout: 15) { Self.blockCells(try tmux.capture()).count > 50 })
            let pid = try #require(try tmux.commandPID())
            kill(pid, signal)
            #expect(try TestRig.wait(timeout: 5) { try tmux.capture().contains("ended \(status)") }, "\((try? tmux.capture()) ?? "")")
            let restored = try Self.modes(tmux)
            #expect(restored == before)
            let screen = try tmux.capture()
            #expect(Self.blockCells(screen).isEmpty)
            try tmux.run("clear")
        }
    }

    /// Occurrences of `needle` in `data`.
    static func count(_ needle: String, in data: Data) -> Int {
        let bytes = [UInt8](data), pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return 0 }
        return (0 ... bytes.count - pattern.count).filter { bytes[$0 ..< $0 + pattern.count].elementsEqual(pattern) }.count
    }

    @Test("On a pty: frames inside synchronized output when the terminal answers that it has it, none otherwise; frequency labels; nothing written at rest; q exits")
    func sequences() throws {
        let server = try PrivatePulseServer()
        // Music: a steady tone soon draws a still spectrum, and a still picture writes no frames.
        let player = try server.play(try MusicLibrary.path(of: MusicLibrary.songs[1]))
        defer { player.terminate() }
        let environment = Self.environment(server)
        let answered = try PseudoTerminal.run(["--mode", "spectrum"], environment: environment, answersSync: true, steps: [.read(3)])
        // Up to q: what came after it is the last frame and the terminal restored.
        let frames = answered.output.prefix(answered.beforeQuit)
        let begins = Self.count("\u{1B}[?2026h", in: frames), ends = Self.count("\u{1B}[?2026l", in: frames)
        #expect(begins > 30 && abs(begins - ends) <= 1, "\(begins) frames begun, \(ends) ended in 3 s")
        // Every cell after the queries is written inside a frame: nothing between an end and the next begin.
        let text = String(decoding: frames, as: UTF8.self)
        let between = text.components(separatedBy: "\u{1B}[?2026l").dropFirst().dropLast().map { $0.components(separatedBy: "\u{1B}[?2026h").first ?? "" }
        let outside = between.filter { !$0.isEmpty }
        #expect(outside.isEmpty, "bytes outside a frame: \(outside.prefix(2))")
        #expect(answered.status == 0 && answered.quitSeconds < 1.5, "status \(answered.status) after \(answered.quitSeconds) s")

        let unanswered = try PseudoTerminal.run(["--mode", "spectrum"], environment: environment, answersSync: false, steps: [.read(2)])
        #expect(Self.count("\u{1B}[?2026h", in: unanswered.output) == 0)
        #expect(Self.count("\u{2588}", in: unanswered.output) > 20, "no bars drawn")
        // The spectrum's frequency labels, on the row under it.
        #expect(Self.count("2k", in: unanswered.output) >= 1 && Self.count("500", in: unanswered.output) >= 1, "no frequency labels")

        // Silence: once the bars have fallen and the device's name is gone (4 s), nothing is written.
        player.terminate()
        let resting = try PseudoTerminal.run(["--mode", "spectrum"], environment: environment, answersSync: true, steps: [.read(5), .count(2)])
        let restingTail = String(decoding: resting.output.prefix(resting.beforeQuit).suffix(200), as: UTF8.self).debugDescription
        #expect(resting.counts == [0], "\(resting.counts) bytes written in 2 s of silence, ending \(restingTail)")
        #expect(resting.status == 0)
    }

    @Test("On a pty that stops reading for 4 s (a stalled link): frames are dropped, not queued; the picture goes on and q still exits at once")
    func stalledReader() throws {
        let server = try PrivatePulseServer()
        // The spectrogram moves every frame, and its frames are large: queued, 4 s of them would be megabytes.
        let player = try server.play(try MusicLibrary.path(of: MusicLibrary.songs[1]))
        defer { player.terminate() }
        let result = try PseudoTerminal.run(["--mode", "spectrogram"], environment: Self.environment(server), answersSync: true,
                                            steps: [.read(2), .count(1), .stall(4), .count(1), .count(1)])
        // Memory across the stall (steps: read, count, stall, ...): queued, its 4 s of frames would be held.
        let growth = result.sizes[3] - result.sizes[2]
        let perSecond = result.counts[0]
        print("term stall: \(result.counts) bytes a second before, just after and a second after a 4 s stall; memory grew \(growth) bytes")
        #expect(perSecond > 100_000, "the spectrogram wrote \(perSecond) bytes a second")
        if TestRig.measuresMemory {
            #expect(growth < perSecond, "memory grew by \(growth) bytes in a 4 s stall, writing \(perSecond) bytes a second before it")
        }
        // Nor do 4 s of frames pour out once the reader is back: the second just after it brings no more
        // than the next one (which is more than before the stall: the spectrogram's picture fills up).
        #expect(result.counts[1] < 2 * result.counts[2], "\(result.counts[1]) bytes came in the second after the stall, \(result.counts[2]) in the next")
        #expect(result.counts[2] > perSecond / 4, "drawing did not go on after the stall: \(result.counts)")
        #expect(result.status == 0 && result.quitSeconds < 1.5, "status \(result.status) after \(result.quitSeconds) s")
    }
}
