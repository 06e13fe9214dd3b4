import Foundation
import Testing

/// `decibar term` drawing real pixels: sixel in xterm (VT340 mode) and kitty's graphics in kitty,
/// each on an Xvfb of the test's own, and sixel in foot under a headless sway, read off
/// screenshots; `--graphics text` in the same terminals draws cells instead.
@Suite("Terminal graphics: sixel in xterm and foot, kitty images in kitty", .serialized,
       .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct TerminalGraphicsTests {
    enum Emulator: String, CaseIterable, CustomTestStringConvertible {
        case xterm, kitty, foot
        var testDescription: String { rawValue }

        /// The window's inside on the screen (both open at the top left: no window manager).
        var area: (x: Int, y: Int, width: Int, height: Int) {
            switch self {
            case .xterm: (6, 6, 530, 340)
            case .kitty, .foot: (4, 4, 700, 460)
            }
        }

        func command(_ term: [String]) -> (tool: String, arguments: [String], environment: [String: String]) {
            switch self {
            case .xterm:
                // VT340 with 256 colour registers: xterm's sixel at its best (the default has 16).
                return ("xterm", ["-ti", "vt340", "-xrm", "XTerm.vt100.numColorRegisters: 1024", "-geometry", "90x28+0+0", "-e", TestRig.decibar] + term, [:])
            case .kitty:
                // Software GL: kitty draws with OpenGL and this machine has no GPU.
                return ("kitty", ["--config", "NONE", "-o", "initial_window_width=720", "-o", "initial_window_height=480", TestRig.decibar] + term,
                        ["LIBGL_ALWAYS_SOFTWARE": "1"])
            case .foot:
                return ("foot", ["--app-id", "decibar-term", TestRig.decibar] + term, [:])
            }
        }
    }

    /// What a screenshot's terminal area holds: distinct colours, the share of pixels that are not
    /// near black, and the share of horizontal neighbours that are equal (cells of blocks are flat).
    struct Look {
        var colors: Int
        var lit: Double
        var flat: Double
        var pixels: [UInt8]

        init(_ frame: RenderTests.Frame, area: (x: Int, y: Int, width: Int, height: Int)) {
            let (width, height) = (area.width, area.height)
            var seen = Set<UInt32>()
            var lit = 0
            var flat = 0
            var pixels: [UInt8] = []
            pixels.reserveCapacity(width * height * 3)
            for y in 0 ..< height {
                var previous: UInt32?
                for x in 0 ..< width {
                    let (r, g, b) = frame.pixel(x: area.x + x, y: area.y + y)
                    let color = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                    seen.insert(color)
                    if Int(r) + Int(g) + Int(b) > 48 { lit += 1 }
                    if previous == color { flat += 1 }
                    previous = color
                    pixels += [r, g, b]
                }
            }
            colors = seen.count
            self.lit = Double(lit) / Double(width * height)
            self.flat = Double(flat) / Double((width - 1) * height)
            self.pixels = pixels
        }

        /// The mean absolute difference of two looks' pixels, 0...255.
        func difference(from other: Look) -> Double {
            zip(pixels, other.pixels).reduce(0.0) { $0 + Double(abs(Int($1.0) - Int($1.1))) } / Double(pixels.count)
        }
    }

    /// Starts `decibar term` with `arguments` in the emulator on a display of its own, with a tone
    /// playing, and returns two looks at its window 2 s apart, once the first has a picture.
    func looks(in emulator: Emulator, _ arguments: [String], pictured: (Look) -> Bool) throws -> (Look, Look, String) {
        let server = try PrivatePulseServer()
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 60)
        let player = try server.play(tone)
        defer { player.terminate() }
        // xterm and kitty on an X server of their own; foot on a headless sway (Wayland).
        let display = emulator == .foot ? nil : try PrivateDisplay(size: "1024x768x24", resets: false)
        let compositor = emulator == .foot ? try PrivateCompositor(size: "1024x768") : nil
        defer { compositor?.stop() }
        let (tool, toolArguments, extra) = emulator.command(["term"] + arguments)
        let place = compositor?.environment ?? ["DISPLAY": display?.display ?? ""]
        let environment = server.environment.merging(extra) { $1 }.merging(place) { $1 }.merging(["NO_COLOR": ""]) { $1 }
        let terminal = try RunningCommand(toolArguments, environment: environment, tool: tool)
        defer { terminal.stop() }
        let shot = server.directory + "/shot.png"
        func look() throws -> Look {
            if let compositor { return Look(try compositor.grab(to: shot), area: emulator.area) }
            let screen = display?.display ?? ""
            let grabbed = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "x11grab", "-video_size", "1024x768",
                                                     "-i", screen, "-frames:v", "1", shot], environment: ["DISPLAY": screen])
            guard grabbed.status == 0 else { throw RigError("x11grab: \(grabbed.error)") }
            return Look(try RenderTests.Frame(png: shot, width: 1024, height: 768), area: emulator.area)
        }
        // The first look with a picture (xterm opens white, kitty black, before decibar draws).
        var first = try look()
        let deadline = TestRig.now() + 30
        while !pictured(first) && TestRig.now() < deadline {
            usleep(300_000)
            first = try look()
        }
        Thread.sleep(forTimeInterval: 2)
        let second = try look()
        // A window that never showed a picture says whether the terminal still ran and which
        // windows the display had, so a failure tells a terminal that never drew from one gone.
        var errors = terminal.standardError
        if !pictured(first) {
            let windows = display.map { try? TestRig.run("xwininfo", ["-root", "-children"], environment: ["DISPLAY": $0.display]) } ?? nil
            errors = "no picture in 30 s; \(tool) \(terminal.isRunning ? "still running" : "ended"); its errors: \(errors)"
                + (windows.map { "; the display's windows: \(String(decoding: $0.output, as: UTF8.self).split(separator: "\n").filter { $0.contains("0x") }.joined(separator: " | "))" } ?? "")
        }
        return (first, second, errors)
    }

    @Test("Milkdrop drawn as real pixels: at least 256 colours (foot: 128, and not flat cells), not black, changing between two shots 2 s apart",
          arguments: Emulator.allCases)
    func pixels(_ emulator: Emulator) throws {
        // foot on Wayland is judged by its pixels not being cells: its sixel palette is its own.
        let colors = emulator == .foot ? 128 : 256
        // Judged once the preset has built its picture (92-97 % of the window lit in xterm and foot):
        // caught while it still grew from black (5 % lit), kitty's picture changed by only 1.75 in 2 s.
        let (first, second, errors) = try looks(in: emulator, ["--mode", "milkdrop", "--seed", "1"]) {
            $0.colors >= colors && $0.lit > 0.3 && (emulator != .foot || $0.flat < 0.8)
        }
        print("term graphics \(emulator): \(first.colors) colours, \(Int(first.lit * 100)) % lit, \(Int(first.flat * 100)) % flat, changed by \(first.difference(from: second))")
        #expect(first.colors >= colors, "\(first.colors) colours: \(errors)")
        #expect(first.lit > 0.3, "\(Int(first.lit * 100)) % of the window lit")
        if emulator == .foot { #expect(first.flat < 0.8, "\(Int(first.flat * 100)) % of neighbours equal: cells, not pixels") }
        #expect(first.difference(from: second) > 2, "the picture did not change in 2 s")
    }

    @Test("--graphics text draws cells instead: flat runs of a cell's width, and in xterm (TERM=xterm) 16 colours", arguments: Emulator.allCases)
    func text(_ emulator: Emulator) throws {
        let (first, second, errors) = try looks(in: emulator, ["--mode", "milkdrop", "--seed", "1", "--graphics", "text"]) { $0.colors >= 3 && $0.lit > 0.05 && $0.lit < 0.95 }
        print("term text \(emulator): \(first.colors) colours, \(Int(first.lit * 100)) % lit, \(Int(first.flat * 100)) % flat, changed by \(first.difference(from: second))")
        #expect(first.lit > 0.05, "\(Int(first.lit * 100)) % of the window lit: \(errors)")
        #expect(first.flat > 0.8, "\(Int(first.flat * 100)) % of neighbours equal")
        if emulator == .xterm { #expect(first.colors <= 20, "\(first.colors) colours") }
        #expect(first.difference(from: second) > 1, "the picture did not change in 2 s")
    }
}
