import DecibarCore
import DecibarRender
import Foundation
import Testing

/// Real OpenGL under the test environment's Xvfb (Mesa llvmpipe). SDL wants one thread at a time.
@Suite("Rendering under Xvfb", .serialized, .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct RenderTests {
    /// Pixels at (x, y) with a top-left origin in a bottom-up RGBA readback.
    struct Frame {
        var pixels: [UInt8]
        var width: Int
        var height: Int
        var bottomUp: Bool

        /// Throws when the picture is short (a screenshot never written, a decode that failed), so a
        /// test fails with the sizes rather than crashing the run on an index.
        init(pixels: [UInt8], width: Int, height: Int, bottomUp: Bool) throws {
            guard pixels.count >= width * height * 4 else {
                throw RigError("a \(width)x\(height) frame needs \(width * height * 4) bytes of RGBA, got \(pixels.count)")
            }
            self.pixels = pixels
            self.width = width
            self.height = height
            self.bottomUp = bottomUp
        }

        func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
            let row = bottomUp ? height - 1 - y : y
            let offset = (row * width + x) * 4
            return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
        }

        func isBackground(x: Int, y: Int, theme: BarTheme) -> Bool {
            let (r, g, b) = pixel(x: x, y: y)
            let background = theme.background
            let expected = [background.red, background.green, background.blue].map { Int(($0 * 255).rounded()) }
            return abs(Int(r) - expected[0]) <= 2 && abs(Int(g) - expected[1]) <= 2 && abs(Int(b) - expected[2]) <= 2
        }

        /// The painted run in column `x`: first painted row and how many rows are painted.
        func paintedSpan(x: Int, theme: BarTheme) -> (top: Int, height: Int) {
            let painted = (0 ..< height).filter { !isBackground(x: x, y: $0, theme: theme) }
            return (painted.first ?? -1, painted.count)
        }
    }

    static let theme = BarTheme.default

    @Test("for fixed levels every bar is drawn at the height the layout gives, within 1 px")
    func barHeights() throws {
        let window = try Window(title: "Decibar render test", width: 640, height: 360)
        let renderer = try BarRenderer(shaders: ShaderLibrary())
        let layout = BarLayout()
        let level = LevelScale().normalized(-29.03)
        let peak = LevelScale().normalized(-26.02)
        for count in [1, 2, 3, 7, 24] {
            let values = SymmetricBars.values(level: level, peak: peak, count: count)
            let (width, height) = window.drawableSize
            let rects = layout.rects(for: values, width: width, height: height)
            renderer.draw(rects, width: width, height: height, theme: Self.theme)
            let readback = window.readPixels()
            window.present()
            let frame = try Frame(pixels: readback.pixels, width: readback.width, height: readback.height, bottomUp: true)
            for rect in rects {
                let span = frame.paintedSpan(x: rect.x + rect.width / 2, theme: Self.theme)
                #expect(abs(span.height - rect.height) <= 1, "\(count) bars: \(rect) drawn \(span.height) px high")
                #expect(abs(span.top - rect.y) <= 1, "\(count) bars: \(rect) starts at row \(span.top)")
                // Bars have their own width: the columns just outside are empty.
                if rect.x > 0 { #expect(frame.paintedSpan(x: rect.x - 1, theme: Self.theme).height == 0) }
            }
            // Values differ across the shape, so heights do too (a flat render would fail here).
            if count >= 3 { #expect(Set(rects.map(\.height)).count > 1) }
        }
    }

    @Test("a label is drawn inside its own box and nowhere else")
    func label() throws {
        let window = try Window(title: "Decibar text test", width: 400, height: 200)
        let renderer = try BarRenderer(shaders: ShaderLibrary())
        let text = try TextRenderer(shaders: ShaderLibrary(), pixelSize: 20)
        let (width, height) = window.drawableSize
        renderer.draw([], width: width, height: height, theme: Self.theme)
        let size = text.size(of: "waiting for audio server")
        #expect(size.height >= 20 && size.width > 150)
        text.draw("waiting for audio server", x: 50, y: 60, color: Color(hex: 0xFFFFFF),
                  canvasWidth: width, canvasHeight: height)
        let readback = window.readPixels()
        window.present()
        let frame = try Frame(pixels: readback.pixels, width: readback.width, height: readback.height, bottomUp: true)
        var inside = 0
        var outside = 0
        for y in 0 ..< height {
            for x in 0 ..< width where !frame.isBackground(x: x, y: y, theme: Self.theme) {
                if (50 ..< 50 + size.width).contains(x) && (60 ..< 60 + size.height).contains(y) { inside += 1 } else { outside += 1 }
            }
        }
        #expect(inside > 300, "only \(inside) text pixels")
        #expect(outside == 0)
    }

    @Test("a shader that does not compile is reported with its file name")
    func brokenShader() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = try ShaderLibrary()
        try FileManager.default.copyItem(atPath: source.directory + "/bars.vert", toPath: folder + "/bars.vert")
        try "#version 330 core\nvoid main() { this is not glsl }\n".write(toFile: folder + "/bars.frag", atomically: true, encoding: .utf8)
        let window = try Window(title: "Decibar shader test", width: 64, height: 64)
        defer { withExtendedLifetime(window) {} }
        do {
            _ = try BarRenderer(shaders: ShaderLibrary(directory: folder))
            Issue.record("a broken shader compiled")
        } catch {
            #expect(error.description.contains("bars.frag failed to compile"))
            #expect(!error.description.contains("\n"))
        }
    }
}

@Suite("Live window end to end", .serialized, .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct LiveWindowTests {
    @Test("the live window shows bars for what is playing, and --screenshot writes a valid PNG of them")
    func screenshot() throws {
        let server = try PrivatePulseServer()
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.05, seconds: 8) // RMS -29.03, peak -26.02 dBFS
        let player = try server.play(tone)
        defer { player.kill() }
        let png = server.directory + "/live.png"
        let live = try RunningCommand(["live", "--bars", "16", "--size", "640x360", "--exit-after", "3.5",
                                       "--screenshot", png], environment: server.environment)
        #expect(live.waitForExit(timeout: 15) == 0, "stderr: \(live.standardError)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

        // Decode with ffmpeg: it rejects a broken PNG, and gives us the pixels.
        let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        #expect(decoded.status == 0, "ffmpeg: \(decoded.error)")
        #expect(decoded.output.count == 640 * 360 * 4)
        let frame = try RenderTests.Frame(pixels: [UInt8](decoded.output), width: 640, height: 360, bottomUp: false)

        // After 3.5 s of a steady tone the smoother and the automatic sensitivity have settled (its
        // reference is the tone's peak), and the device name has faded.
        var sensitivity = AutoSensitivity()
        sensitivity.advance(loudestDB: -26.02, levelDB: -29.03, dt: 1)
        let full = SymmetricBars.fullScale
        let values = SymmetricBars.values(level: sensitivity.normalized(-29.03, fullScale: full),
                                          peak: sensitivity.normalized(-26.02, fullScale: full), count: 16)
        let rects = BarLayout().rects(for: values, width: 640, height: 360)
        for rect in rects {
            let span = frame.paintedSpan(x: rect.x + rect.width / 2, theme: RenderTests.theme)
            #expect(abs(span.height - rect.height) <= 1, "\(rect) drawn \(span.height) px high")
        }
        #expect(live.standardError.contains("listening to Monitor of Null Output"))
    }

    @Test("the player's screenshot shows bars, the scrubber in played and unplayed colors, the playhead and the time labels")
    func playerScreenshot() throws {
        let server = try PrivatePulseServer()
        // 2 s loud (0.5), then 2 s quiet (0.1): the scrubber's columns must show the step.
        let file = server.directory + "/step.wav"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                              "aevalsrc=if(lt(t\\,2)\\,0.5\\,0.1)*sin(2*PI*440*t):s=48000:d=4", "-ac", "2", file])
        #expect(made.status == 0, "\(made.error)")
        let png = server.directory + "/play.png"
        let play = try RunningCommand(["play", file, "--size", "640x360", "--exit-after", "1.5", "--screenshot", png],
                                      environment: server.environment.merging(["XDG_CACHE_HOME": server.directory + "/cache"]) { $1 })
        #expect(play.waitForExit(timeout: 15) == 0, "stderr: \(play.standardError)")
        let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        #expect(decoded.status == 0, "ffmpeg: \(decoded.error)")
        let frame = try RenderTests.Frame(pixels: [UInt8](decoded.output), width: 640, height: 360, bottomUp: false)
        let layout = PlayLayout(width: 640, height: 360)
        func near(_ pixel: (UInt8, UInt8, UInt8), _ color: Color) -> Bool {
            let expected = [color.red, color.green, color.blue].map { Int(($0 * 255).rounded()) }
            return abs(Int(pixel.0) - expected[0]) <= 6 && abs(Int(pixel.1) - expected[1]) <= 6 && abs(Int(pixel.2) - expected[2]) <= 6
        }

        // Bars: a loud tone fills most of the middle bar's height.
        let middleBar = BarLayout().rects(for: [Float](repeating: 1, count: 48), width: 640, height: layout.barsHeight)[24]
        let middle = (0 ..< layout.barsHeight).filter {
            !frame.isBackground(x: middleBar.x + middleBar.width / 2, y: $0, theme: RenderTests.theme)
        }.count
        #expect(middle > layout.barsHeight / 2, "middle bar \(middle) px high")

        // The playhead: the one bright column that reaches above the scrubber, at about the time played.
        let aboveScrubber = layout.scrubberTop - 2
        let bright = (0 ..< 640).filter { x in
            let (r, g, b) = frame.pixel(x: x, y: aboveScrubber)
            return r > 200 && g > 200 && b > 200
        }
        #expect(!bright.isEmpty && bright.last! - bright.first! <= 2, "playhead columns \(bright)")
        // It has moved, and not past the 1.5 s the window was open (less if starting took long).
        let playheadTime = layout.scrubberGeometry(duration: 4).time(forX: Double(bright.first ?? 0))
        #expect(playheadTime > 0.15 && playheadTime < 1.6, "playhead at \(playheadTime) s")

        // Columns on the center line: played color before the playhead, unplayed after.
        let center = layout.scrubberTop + layout.scrubberHeight / 2
        let columns = (layout.scrubberLeft ..< layout.scrubberLeft + layout.scrubberWidth).filter {
            !frame.isBackground(x: $0, y: center, theme: RenderTests.theme) && !bright.contains($0)
        }
        let playhead = bright.first ?? 0
        let before = columns.filter { $0 < playhead - 3 }
        let after = columns.filter { $0 > playhead + 3 }
        #expect(before.count > 10 && before.allSatisfy { near(frame.pixel(x: $0, y: center), ScrubberTheme.default.played) })
        #expect(after.count > 10 && after.allSatisfy { near(frame.pixel(x: $0, y: center), ScrubberTheme.default.unplayed) })

        // The step: columns in the loud half are about five times as tall as in the quiet half.
        func columnHeight(atTime time: Double) -> Int {
            let x = Int(layout.scrubberGeometry(duration: 4).x(forTime: time))
            let column = columns.min { abs($0 - x) < abs($1 - x) } ?? x
            return (layout.scrubberTop ..< layout.scrubberTop + layout.scrubberHeight).filter {
                !frame.isBackground(x: column, y: $0, theme: RenderTests.theme)
            }.count
        }
        let loud = columnHeight(atTime: 0.5), quiet = columnHeight(atTime: 3.0)
        #expect(loud >= layout.scrubberHeight * 9 / 10, "loud column \(loud) of \(layout.scrubberHeight)")
        #expect(abs(Double(quiet) / Double(loud) - 0.2) < 0.05, "quiet \(quiet) vs loud \(loud)")

        // Labels: text under the scrubber at the left (elapsed) and the right (total).
        func hasText(from x0: Int, to x1: Int) -> Bool {
            (layout.labelTop ..< min(360, layout.labelTop + layout.labelSize)).contains { y in
                (x0 ..< x1).contains { x in
                    let (r, g, b) = frame.pixel(x: x, y: y)
                    return r > 120 && g > 120 && b > 120
                }
            }
        }
        #expect(hasText(from: layout.scrubberLeft, to: layout.scrubberLeft + 60), "no elapsed time label")
        #expect(hasText(from: 640 - layout.scrubberLeft - 60, to: 640 - layout.scrubberLeft), "no total time label")
    }

    @Test("the window stays open while the audio server goes away and comes back")
    func survivesServerRestart() throws {
        let server = try PrivatePulseServer()
        let live = try RunningCommand(["live", "--size", "320x180", "--exit-after", "60"], environment: server.environment)
        func said(_ text: String) -> Int { live.standardError.components(separatedBy: text).count - 1 }
        #expect(TestRig.wait(timeout: 20) { said("listening to") == 1 }, "\(live.standardError)")
        server.stop()
        #expect(TestRig.wait(timeout: 10) { said("waiting for audio server") == 1 }, "\(live.standardError)")
        #expect(live.isRunning)
        try server.start()
        #expect(TestRig.wait(timeout: 10) { said("listening to") == 2 }, "\(live.standardError)")
        #expect(live.isRunning)
        live.process.terminate()
        #expect(live.waitForExit(timeout: 10) == 0)
        let messages = live.standardError
        #expect(messages.contains("waiting for audio server"))
        // Listening twice: before the server went away and after it came back.
        #expect(messages.components(separatedBy: "listening to").count == 3, "\(messages)")
    }

    @Test("with no audio server the window says so on screen")
    func waitingMessage() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let png = folder + "/waiting.png"
        let result = try TestRig.run(TestRig.decibar, ["live", "--size", "640x360", "--exit-after", "1", "--screenshot", png],
                                     environment: ["PULSE_SERVER": "unix:\(folder)/absent.sock", "PULSE_COOKIE": folder + "/cookie"])
        #expect(result.status == 0)
        #expect(result.error.contains("waiting for audio server"))
        let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        let frame = try RenderTests.Frame(pixels: [UInt8](decoded.output), width: 640, height: 360, bottomUp: false)
        // The message is light gray just above the center line; silent bars are thin and blue.
        var light = 0
        for y in 100 ..< 180 {
            for x in 0 ..< 640 {
                let (r, g, b) = frame.pixel(x: x, y: y)
                if r > 150 && g > 150 && b > 150 { light += 1 }
            }
        }
        #expect(light > 200, "no message text found (\(light) light pixels)")
    }

    @Test("without a display, live fails with one line")
    func noDisplay() throws {
        // No display named at all: SDL would draw nowhere; that is an error, not an invisible window.
        // (A file that can be read: play says what is wrong with its files before it opens a window.)
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.makeTone(at: folder + "/x.wav", amplitude: 0.5, seconds: 1)
        for command in [["live", "--exit-after", "1"], ["play", folder + "/x.wav", "--exit-after", "1"]] {
            let none = try TestRig.run(TestRig.decibar, command, environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
            #expect(none.status == 1, "\(command)")
            #expect(none.error == "decibar: cannot open a window: no display (DISPLAY and WAYLAND_DISPLAY are not set)\n", "\(none.error)")
        }
        let result = try TestRig.run(TestRig.decibar, ["live", "--exit-after", "1"],
                                     environment: ["DISPLAY": ":9999", "SDL_VIDEODRIVER": "x11", "WAYLAND_DISPLAY": ""])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("decibar: cannot open a window"))
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        // A Wayland socket that is not there is named, not reported as no display at all.
        for layer in ["window", "background"] {
            let missing = "/tmp/decibar-no-compositor-\(getpid())"
            let wayland = try TestRig.run(TestRig.decibar, ["live", "--layer", layer, "--exit-after", "1"],
                                          environment: ["DISPLAY": "", "WAYLAND_DISPLAY": missing, "SDL_VIDEODRIVER": ""])
            #expect(wayland.status == 1)
            #expect(wayland.error == "decibar: cannot connect to the Wayland compositor '\(missing)': No such file or directory\n", "\(wayland.error)")
        }
    }
}
