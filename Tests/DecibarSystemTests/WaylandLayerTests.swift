import DecibarCore
import Foundation
import Testing

/// Desktop layers on Wayland: layer-shell surfaces on a headless sway of the test's own, judged
/// from grim's screenshots of the output, sway's window tree and its pointer; the fallback to a
/// window on weston, whose desktop shell has no layer shell; and the compositor going away.
/// Frames are paced at 20 Hz, which is enough to see and keeps the suite light beside the others.
@Suite("Desktop layers on Wayland", .serialized, .enabled(if: TestRig.canRun(needing: .display), "needs sway, foot, grim and weston (make test has them)"))
struct WaylandLayerTests {
    static let fps = 20

    /// `decibar play` of a 30 s tone on `compositor`, once it has drawn (its frame log has lines).
    func play(_ arguments: [String], on compositor: PrivateCompositor, server: PrivatePulseServer) throws -> RunningCommand {
        try play(arguments, on: compositor, server: server, frameLog: server.directory + "/frames-\(UUID().uuidString.prefix(8)).log")
    }

    func play(_ arguments: [String], on compositor: PrivateCompositor, server: PrivatePulseServer, frameLog log: String) throws -> RunningCommand {
        let tone = server.directory + "/tone.wav"
        if !FileManager.default.fileExists(atPath: tone) { try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 30) }
        let player = try RunningCommand(["play", tone, "--display-fps", "\(Self.fps)", "--frame-log", log] + arguments,
                                        environment: server.environment.merging(compositor.environment) { $1 })
        #expect(TestRig.wait(timeout: 10) { frameCount(log) > 10 }, "\(player.standardError)")
        return player
    }

    func frameCount(_ log: String) -> Int {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    func isWhite(_ pixel: (UInt8, UInt8, UInt8)) -> Bool { pixel.0 > 240 && pixel.1 > 240 && pixel.2 > 240 }

    @Test("background: a layer surface, no window; the bars show around a window placed over them and not under it")
    func background() throws {
        let compositor = try PrivateCompositor()
        let server = try PrivatePulseServer()
        let player = try play(["--layer", "background"], on: compositor, server: server)
        defer { player.stop() }
        #expect(try compositor.windows().isEmpty, "a layer is not one of sway's windows")
        let foot = try compositor.terminal(appID: "probe")
        defer { foot.stop() }
        try compositor.swaymsg(["[app_id=probe] floating enable, resize set 400 300, move absolute position 200 150"])
        usleep(500_000)
        let frame = try compositor.grab(to: server.directory + "/background.png")
        let inside = (0 ..< 20).map { frame.pixel(x: 230 + $0 * 15, y: 300) }
        #expect(inside.allSatisfy(isWhite), "\(inside)")
        let around = (0 ..< 40).map { 15 + $0 * 31 }.filter { !(200 ..< 600).contains($0) && !frame.isBackground(x: $0, y: 300, theme: RenderTests.theme) }
        #expect(around.count >= 10, "bars around the window: \(around.count) points")
        #expect(player.isRunning)
    }

    @Test("milkdrop as a background layer (the EGL path): a moving picture over the whole output")
    func milkdropBackground() throws {
        let compositor = try PrivateCompositor()
        let server = try PrivatePulseServer()
        let player = try play(["--layer", "background", "--mode", "milkdrop", "--preset", MilkdropTests.brightPreset], on: compositor, server: server)
        defer { player.stop() }
        let first = try compositor.grab(to: server.directory + "/first.png")
        // A preset builds its picture over its first seconds (from black, by its own feedback):
        // judged on the first look where it has, within 10 s.
        var second = first
        var looks: [(colors: Int, lit: Double)] = []
        let deadline = TestRig.now() + 10
        repeat {
            usleep(500_000)
            second = try compositor.grab(to: server.directory + "/second.png")
            looks.append(MilkdropTests.variety(of: second))
        } while !(looks.last!.colors >= 8 && looks.last!.lit >= 0.25) && TestRig.now() < deadline
        print("milkdrop layer looks (colours, lit): \(looks.map { "\($0.colors) \(Int($0.lit * 100)) %" }.joined(separator: ", "))")
        let variety = looks.last!
        #expect(variety.colors >= 8 && variety.lit >= 0.25, "\(variety)")
        let moves = first.pixels != second.pixels
        #expect(moves, "the picture moves")
        #expect(player.isRunning, "\(player.standardError)")
    }

    @Test("overlay: drawn over the windows, see-through between the bars, and a click at the bars reaches the window below")
    func overlay() throws {
        let compositor = try PrivateCompositor()
        let server = try PrivatePulseServer()
        let left = try compositor.terminal(appID: "left")
        defer { left.stop() }
        let right = try compositor.terminal(appID: "right")
        defer { right.stop() }
        #expect(try compositor.windows().first { $0.appID == "right" }?.focused == true)
        let player = try play(["--layer", "overlay"], on: compositor, server: server)
        defer { player.stop() }
        let frame = try compositor.grab(to: server.directory + "/overlay.png")
        // The middle row crosses every bar: over the white terminals, bars and white between them.
        let row = (0 ..< 1280).map { frame.pixel(x: $0, y: 250) }
        let white = row.filter(isWhite).count
        #expect(white > 200 && white < 1100, "white \(white) of 1280 across the bars")
        // A bar stands at the middle of the left half; the click there focuses the left terminal.
        let x = (300 ..< 340).first { !isWhite(frame.pixel(x: $0, y: 250)) } ?? 320
        try compositor.click(at: x, 250)
        #expect(TestRig.wait(timeout: 3) { ((try? compositor.windows()) ?? []).first { $0.appID == "left" }?.focused == true },
                "\((try? compositor.windows().map { "\($0.appID) \($0.focused)" }) ?? [])")
        try compositor.click(at: 960, 250)
        #expect(TestRig.wait(timeout: 3) { ((try? compositor.windows()) ?? []).first { $0.appID == "right" }?.focused == true })
        #expect(player.isRunning)
    }

    @Test("a strip: --anchor bottom --height 120 on the named output is a 120 px band along its bottom edge, 240 px at scale 2; an unknown output is one line naming those there are")
    func strip() throws {
        let server = try PrivatePulseServer()
        for scale in [1, 2] {
            let compositor = try PrivateCompositor(scale: scale)
            let empty = try compositor.grab(to: server.directory + "/empty-\(scale).png").pixel(x: 0, y: 0)
            let tone = server.directory + "/tone.wav"
            try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 30)
            if scale == 1 {
                let wrong = try TestRig.run(TestRig.decibar, ["play", tone, "--layer", "top", "--monitor", "HDMI-9"],
                                            environment: server.environment.merging(compositor.environment) { $1 })
                let message = wrong.error.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(wrong.status != 0 && message == "decibar: no monitor 'HDMI-9' (there is: HEADLESS-1)", "\(message)")
            }
            let player = try play(["--layer", "bottom", "--monitor", "HEADLESS-1", "--anchor", "bottom", "--height", "120"], on: compositor, server: server)
            defer { player.stop() }
            let frame = try compositor.grab(to: server.directory + "/strip-\(scale).png")
            // The strip has the theme's background and the bars; the rest is sway's empty output.
            let painted = (0 ..< 720).filter { y in (0 ..< 16).contains { frame.pixel(x: 40 + $0 * 75, y: y) != empty } }
            let thickness = 120 * scale
            #expect(painted.first == 720 - thickness && painted.count == thickness, "scale \(scale): rows \(painted.first ?? -1)…\(painted.last ?? -1), \(painted.count)")
            // Drawn at the output's full resolution, not scaled up by the compositor: the frame
            // saved on closing is as many pixels as the output shows.
            let shot = server.directory + "/saved-\(scale).png"
            let saved = try TestRig.run(TestRig.decibar, ["play", tone, "--layer", "bottom", "--anchor", "bottom", "--height", "120",
                                                          "--display-fps", "\(Self.fps)", "--exit-after", "1", "--screenshot", shot],
                                        environment: server.environment.merging(compositor.environment) { $1 })
            #expect(saved.status == 0, "\(saved.error)")
            let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: shot)).prefix(24))
            let size = header.count == 24 ? (header[16 ..< 20].reduce(0) { $0 << 8 | Int($1) }, header[20 ..< 24].reduce(0) { $0 << 8 | Int($1) }) : (0, 0)
            #expect(size == (1280, thickness), "scale \(scale): saved \(size)")
        }
    }

    @Test("covered by a fullscreen window the background layer draws nothing (sway sends no frame callbacks), and draws again when it goes")
    func covered() throws {
        let compositor = try PrivateCompositor()
        let server = try PrivatePulseServer()
        let log = server.directory + "/frames.log"
        let player = try play(["--layer", "background"], on: compositor, server: server, frameLog: log)
        defer { player.stop() }
        func framesDrawn(during seconds: Double) -> Int {
            let before = frameCount(log)
            usleep(UInt32(seconds * 1e6))
            return frameCount(log) - before
        }
        // Drawing is told by frames coming (half a second's worth, within 10 s), not by their rate:
        // this suite runs beside the timed tests at the lowest priority, where a second can bring
        // two frames (the rate is the pacing tests' business).
        func draws(_ count: Int) -> Bool {
            let before = frameCount(log)
            return TestRig.wait(timeout: 10) { frameCount(log) - before >= count }
        }
        let drawing = draws(Self.fps / 2)
        let foot = try compositor.terminal(appID: "cover")
        try compositor.swaymsg(["[app_id=cover] fullscreen enable"])
        // Once the cover is in place (no frame for half a second; a starved compositor takes longer).
        _ = TestRig.wait(timeout: 10) { framesDrawn(during: 0.5) == 0 }
        let covered = framesDrawn(during: 2)
        foot.stop()
        usleep(500_000)
        let uncovered = draws(Self.fps / 2)
        #expect(drawing && covered <= 1 && uncovered, "drawing \(drawing), \(covered) frames in 2 s covered, drawing again \(uncovered)")
        #expect(player.isRunning)
    }

    @Test("the daemon: ctl set display.layer background makes its window a layer that draws, live; window makes it a window again")
    func daemonSwitches() throws {
        let compositor = try PrivateCompositor()
        let rig = try DaemonRig(arguments: ["--size", "640x360", "--display-fps", "\(Self.fps)"], environment: compositor.environment)
        let tone = rig.server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 30)
        let music = try RunningCommand(["--device=viz", tone], environment: rig.server.environment, tool: "paplay")
        defer { music.stop() }
        #expect(try rig.ctl("show").status == 0)
        #expect(TestRig.wait(timeout: 10) { ((try? compositor.windows()) ?? []).contains { $0.appID == "decibar" } })
        let set = try rig.ctl("set", "display.layer", "background")
        #expect(set.status == 0, "\(set.error)")
        #expect(TestRig.wait(timeout: 10) { ((try? compositor.windows()) ?? []).isEmpty })
        // The layer covers the output and draws the bars (the window made again is the one drawn).
        var bars = 0
        #expect(TestRig.wait(timeout: 10) {
            guard let frame = try? compositor.grab(to: rig.server.directory + "/daemon.png") else { return false }
            bars = (0 ..< 40).filter { !frame.isBackground(x: 15 + $0 * 31, y: 360, theme: RenderTests.theme) }.count
            return bars >= 10
        }, "bar points: \(bars)")
        #expect(try rig.status()["window"] == .string("shown"))
        let wrong = try rig.ctl("set", "display.monitor", "HDMI-9")
        #expect(wrong.status != 0 && wrong.error.contains("no monitor 'HDMI-9' (there is: HEADLESS-1)"), "\(wrong.error)")
        #expect(try rig.ctl("set", "display.layer", "window").status == 0)
        #expect(TestRig.wait(timeout: 10) { ((try? compositor.windows()) ?? []).contains { $0.appID == "decibar" } })
    }

    @Test("weston (no layer shell): one line, then an ordinary window with the bars")
    func westonFallsBack() throws {
        // Weston in a window of an Xvfb of the test's own: its seat is the X server's, and the
        // screen it draws is grabbed from the X side.
        let screen = try PrivateDisplay(size: "1280x720x24", resets: false)
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let weston = try RunningCommand(["--backend=x11-backend.so", "--socket=wayland-t", "--use-pixman", "--idle-time=0", "--width=1280", "--height=720"],
                                        environment: ["DISPLAY": screen.display, "XDG_RUNTIME_DIR": folder], tool: "weston")
        defer { weston.stop() }
        let socket = folder + "/wayland-t"
        #expect(TestRig.wait(timeout: 10) { FileManager.default.fileExists(atPath: socket) }, "\(weston.standardError)")
        let server = try PrivatePulseServer()
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 30)
        let player = try RunningCommand(["play", tone, "--layer", "background", "--display-fps", "\(Self.fps)"],
                                        environment: server.environment.merging(["WAYLAND_DISPLAY": socket, "DISPLAY": ""]) { $1 })
        defer { player.stop() }
        usleep(2_500_000)
        #expect(player.isRunning, "\(player.standardError)")
        let lines = player.standardError.split(separator: "\n")
        #expect(lines == ["decibar: warning: --layer background: the compositor has no layer shell (wlr-layer-shell; GNOME has none), so an ordinary window opens",
                          "decibar: playing \(tone)"], "\(lines)")
        let path = server.directory + "/weston.png"
        let grabbed = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "x11grab", "-video_size", "1280x720", "-i", screen.display,
                                                 "-frames:v", "1", path], environment: ["DISPLAY": screen.display])
        #expect(grabbed.status == 0, "\(grabbed.error)")
        let frame = try RenderTests.Frame(png: path, width: 1280, height: 720)
        // The window's opaque theme background, with bars across the middle.
        let bars = (0 ..< 40).filter { !frame.isBackground(x: 20 + $0 * 31, y: 300, theme: RenderTests.theme) }.count
        let themed = (0 ..< 40).filter { frame.isBackground(x: 20 + $0 * 31, y: 300, theme: RenderTests.theme) }.count
        #expect(bars >= 10 && themed >= 5, "\(bars) bar points, \(themed) background points")
    }

    @Test("sway killed while Decibar draws with music playing, 20 times (layers and windows, live and play): one line and status 1 each time, quickly")
    func compositorKilled() throws {
        let server = try PrivatePulseServer()
        let music = server.directory + "/music.wav"
        try TestRig.makeTone(at: music, amplitude: 0.5, seconds: 60)
        let background = try RunningCommand(["--device=viz", music], environment: server.environment, tool: "paplay")
        defer { background.stop() }
        let kinds: [[String]] = [["live", "--layer", "background"], ["play", music, "--layer", "overlay"], ["live"],
                                 ["play", music], ["live", "--layer", "top", "--anchor", "bottom", "--height", "60"]]
        var outcomes: [String] = []
        for round in 0 ..< 20 {
            let compositor = try PrivateCompositor(size: "480x270")
            let log = server.directory + "/killed-\(round).log"
            let arguments = kinds[round % kinds.count] + ["--display-fps", "\(Self.fps)", "--frame-log", log]
            let decibar = try RunningCommand(arguments, environment: server.environment.merging(compositor.environment) { $1 })
            let drew = TestRig.wait(timeout: 10) { frameCount(log) > 3 }
            compositor.kill()
            let status = decibar.waitForExit(timeout: 5)
            let lines = decibar.standardError.split(separator: "\n").filter { !$0.hasPrefix("decibar: listening to") && !$0.hasPrefix("decibar: playing") }
            let fine = drew && status == 1 && lines == ["decibar: lost the connection to the display \(compositor.socket); nothing more can be drawn"]
            if !fine {
                decibar.stop()
                outcomes.append("round \(round) \(arguments.joined(separator: " ")): drew \(drew), status \(status.map(String.init) ?? "still running"), \(lines)")
            }
        }
        #expect(outcomes.isEmpty, "\(outcomes)")
    }
}
