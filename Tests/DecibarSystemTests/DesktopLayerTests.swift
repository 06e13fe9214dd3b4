import DecibarCore
import Foundation
import Testing

/// Desktop layers on X11 under a real window manager (openbox on an Xvfb of the test's own): what
/// the window says it is (xprop), where it stacks against a managed window (`xwininfo -children`),
/// what the screen shows (an x11grab of the root), and whether a click at the bars reaches the
/// window below (xev counting its button presses).
@Suite("Desktop layers on X11", .serialized, .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct DesktopLayerTests {
    /// An X server with openbox managing its windows.
    final class ManagedDisplay {
        let screen: PrivateDisplay
        let manager: RunningCommand

        init() throws {
            screen = try PrivateDisplay(size: "1280x720x24", resets: false)
            manager = try RunningCommand(["--sm-disable"], environment: ["DISPLAY": screen.display], tool: "openbox")
            // Managing once it has said so on the root window.
            guard TestRig.wait(timeout: 10, until: { (try? self.xprop(["-root", "_NET_SUPPORTING_WM_CHECK"]))?.contains("window id") == true }) else {
                throw RigError("openbox did not start: \(manager.standardError)")
            }
        }

        deinit { manager.stop() }

        func xprop(_ arguments: [String]) throws -> String {
            String(decoding: try TestRig.run("xprop", arguments, environment: ["DISPLAY": screen.display]).output, as: UTF8.self)
        }

        func xwininfo(_ arguments: [String]) throws -> String {
            String(decoding: try TestRig.run("xwininfo", arguments, environment: ["DISPLAY": screen.display]).output, as: UTF8.self)
        }

        /// The root's children, top first (as xwininfo lists them).
        func stacking() throws -> [Int] {
            try xwininfo(["-root", "-children"]).split(separator: "\n").compactMap { line in
                let words = line.split(separator: " ")
                guard let first = words.first, first.hasPrefix("0x") else { return nil }
                return Int(first.dropFirst(2), radix: 16)
            }
        }

        /// The root's child that holds window `id` (its frame, for a managed window).
        func topLevel(of id: Int) throws -> Int {
            var current = id
            for _ in 0 ..< 8 {
                let info = try xwininfo(["-id", "\(current)", "-children"])
                func value(_ label: String) -> Int? {
                    guard let line = info.split(separator: "\n").first(where: { $0.contains(label) }),
                          let hex = line.split(separator: " ").first(where: { $0.hasPrefix("0x") }) else { return nil }
                    return Int(hex.dropFirst(2), radix: 16)
                }
                guard let parent = value("Parent window id:"), let root = value("Root window id:") else { break }
                if parent == root { return current }
                current = parent
            }
            throw RigError("no top-level window holds \(id)")
        }

        /// Whether window `upper` is stacked above window `lower`.
        func isAbove(_ upper: Int, _ lower: Int) throws -> Bool {
            let stack = try stacking()
            let (a, b) = (try topLevel(of: upper), try topLevel(of: lower))
            guard let upperIndex = stack.firstIndex(of: a), let lowerIndex = stack.firstIndex(of: b) else { return false }
            return upperIndex < lowerIndex
        }

        /// The screen as it shows now.
        func grab(to path: String) throws -> RenderTests.Frame {
            let grabbed = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "x11grab", "-video_size", "1280x720",
                                                     "-i", screen.display, "-frames:v", "1", path], environment: ["DISPLAY": screen.display])
            guard grabbed.status == 0 else { throw RigError("x11grab: \(grabbed.error)") }
            return try RenderTests.Frame(png: path, width: 1280, height: 720)
        }
    }

    /// xev's window at 200,150, 400x300: a test window that counts the clicks it gets.
    func clickCounter(on desk: ManagedDisplay) throws -> (process: RunningCommand, id: Int) {
        let xev = try RunningCommand(["-geometry", "400x300+200+150", "-event", "button"], environment: ["DISPLAY": desk.screen.display], tool: "xev")
        var id = 0
        guard TestRig.wait(timeout: 10, until: {
            id = Int((try? desk.screen.xdotool(["search", "--name", "^Event Tester$"]))?.split(separator: "\n").first ?? "") ?? 0
            return id != 0 && (try? desk.topLevel(of: id)) != nil
        }) else { throw RigError("xev's window did not appear") }
        return (xev, id)
    }

    func play(_ arguments: [String], on desk: ManagedDisplay, server: PrivatePulseServer) throws -> (player: RunningCommand, id: Int) {
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 30)
        let player = try RunningCommand(["play", tone] + arguments, environment: server.environment.merging(["DISPLAY": desk.screen.display]) { $1 })
        let id = Int(try desk.screen.window(of: player.process.processIdentifier)) ?? 0
        #expect(TestRig.wait(timeout: 10) { ((try? desk.xwininfo(["-id", "\(id)"])) ?? "").contains("IsViewable") }, "\(player.standardError)")
        usleep(800_000)
        return (player, id)
    }

    /// Clicks at root position x, y; returns how many button presses xev has seen since.
    func click(at x: Int, _ y: Int, on desk: ManagedDisplay, counter: RunningCommand) throws -> Int {
        let before = counter.output.filter { $0.text.hasPrefix("ButtonPress") }.count
        try desk.screen.xdotool(["mousemove", "\(x)", "\(y)", "click", "1"])
        TestRig.wait(timeout: 2) { counter.output.filter { $0.text.hasPrefix("ButtonPress") }.count > before }
        return counter.output.filter { $0.text.hasPrefix("ButtonPress") }.count - before
    }

    @Test("background: the desktop's window type, below the others, bars visible around a window placed over them and hidden under it; clicks pass through")
    func background() throws {
        let desk = try ManagedDisplay()
        let server = try PrivatePulseServer()
        let (player, id) = try play(["--layer", "background"], on: desk, server: server)
        defer { player.stop() }
        let described = try desk.xprop(["-id", "\(id)", "_NET_WM_WINDOW_TYPE", "_NET_WM_STATE", "WM_HINTS"])
        #expect(described.contains("_NET_WM_WINDOW_TYPE_DESKTOP") && described.contains("_NET_WM_STATE_BELOW")
                && described.contains("_NET_WM_STATE_STICKY") && described.contains("_NET_WM_STATE_SKIP_TASKBAR"), "\(described)")
        #expect(described.contains("input focus: False"), "\(described)")
        let geometry = try TestRig.run("xwininfo", ["-id", "\(id)"], environment: ["DISPLAY": desk.screen.display])
        let info = String(decoding: geometry.output, as: UTF8.self)
        #expect(info.contains("Width: 1280") && info.contains("Height: 720"), "\(info)")

        let (xev, xevID) = try clickCounter(on: desk)
        defer { xev.stop() }
        #expect(try desk.isAbove(xevID, id), "stacking \((try? desk.stacking()) ?? []), layer \(id), xev \(xevID)")
        // Moving bars around the window (outside it) and xev's plain white inside it.
        let frame = try desk.grab(to: server.directory + "/background.png")
        let inside = (0 ..< 20).map { frame.pixel(x: 250 + $0 * 15, y: 300) }
        #expect(inside.allSatisfy { $0.0 > 240 && $0.1 > 240 && $0.2 > 240 }, "\(inside)")
        let around = (0 ..< 40).map { 30 + $0 * 30 }.filter { !(200 ..< 600).contains($0) && !frame.isBackground(x: $0, y: 360, theme: RenderTests.theme) }
        #expect(around.count >= 10, "bars around the window: \(around.count) points")
        // The window over the layer gets its clicks.
        #expect(try click(at: 400, 300, on: desk, counter: xev) == 1)
        #expect(player.isRunning)
    }

    @Test("overlay: above the windows, drawn over one, and a click at the bars reaches the window below")
    func overlay() throws {
        let desk = try ManagedDisplay()
        let server = try PrivatePulseServer()
        let (xev, xevID) = try clickCounter(on: desk)
        defer { xev.stop() }
        let (player, id) = try play(["--layer", "overlay"], on: desk, server: server)
        defer { player.stop() }
        let described = try desk.xprop(["-id", "\(id)", "_NET_WM_STATE"])
        #expect(described.contains("_NET_WM_STATE_ABOVE"), "\(described)")
        #expect(try desk.isAbove(id, xevID), "stacking \((try? desk.stacking()) ?? []), layer \(id), xev \(xevID)")
        // Over xev's white, the layer draws (no compositor here: its see-through background shows black).
        let frame = try desk.grab(to: server.directory + "/overlay.png")
        let inside = (0 ..< 20).map { frame.pixel(x: 250 + $0 * 15, y: 300) }
        #expect(inside.filter { $0.0 > 240 && $0.1 > 240 && $0.2 > 240 }.isEmpty, "\(inside)")
        // The click at the bars goes through to xev, twice.
        #expect(try click(at: 400, 300, on: desk, counter: xev) == 1)
        #expect(try click(at: 300, 200, on: desk, counter: xev) == 1)
        #expect(player.isRunning)
    }

    @Test("a strip: --anchor bottom --height 120 on the named monitor is a 120 px band along its bottom edge; an unknown monitor is one line naming those there are")
    func strip() throws {
        let desk = try ManagedDisplay()
        let server = try PrivatePulseServer()
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 5)
        let wrong = try TestRig.run(TestRig.decibar, ["play", tone, "--layer", "top", "--monitor", "HDMI-9"],
                                    environment: server.environment.merging(["DISPLAY": desk.screen.display]) { $1 })
        let message = wrong.error.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(wrong.status != 0 && message.hasPrefix("decibar: no monitor 'HDMI-9' (there is: ") && !message.contains("\n"), "\(message)")
        let name = message.split(separator: ":").last.map { String($0.dropFirst().dropLast()) } ?? ""
        let (player, id) = try play(["--layer", "top", "--monitor", name, "--anchor", "bottom", "--height", "120"], on: desk, server: server)
        defer { player.stop() }
        let info = String(decoding: try TestRig.run("xwininfo", ["-id", "\(id)"], environment: ["DISPLAY": desk.screen.display]).output, as: UTF8.self)
        for line in ["Absolute upper-left X:  0", "Absolute upper-left Y:  600", "Width: 1280", "Height: 120"] {
            #expect(info.contains(line), "\(line) in \(info)")
        }
    }

    @Test("the daemon: ctl set display.layer background makes its window the desktop's, live; window makes it a window again")
    func daemonSwitches() throws {
        let desk = try ManagedDisplay()
        let rig = try DaemonRig(arguments: ["--size", "640x360"], environment: ["DISPLAY": desk.screen.display])
        #expect(try rig.ctl("show").status == 0)
        func window() throws -> Int { Int(try desk.screen.window(of: try #require(rig.daemon).process.processIdentifier)) ?? 0 }
        func override(_ id: Int) -> Bool { ((try? desk.xwininfo(["-id", "\(id)"])) ?? "").contains("Override Redirect State: yes") }
        let first = try window()
        #expect(!override(first))
        let set = try rig.ctl("set", "display.layer", "background")
        #expect(set.status == 0, "\(set.error)")
        var layered = 0
        #expect(TestRig.wait(timeout: 10) {
            layered = (try? window()) ?? 0
            // (Made again after the first is gone, it may get the same X id.)
            return layered != 0 && override(layered)
        })
        let described = try desk.xprop(["-id", "\(layered)", "_NET_WM_WINDOW_TYPE"])
        #expect(described.contains("_NET_WM_WINDOW_TYPE_DESKTOP"), "\(described)")
        #expect(((try? desk.xwininfo(["-id", "\(layered)"])) ?? "").contains("Width: 1280"))
        #expect(try rig.status()["window"] == .string("shown"))
        // A monitor that is not there: refused in one line, and the window stays as it was.
        let wrong = try rig.ctl("set", "display.monitor", "HDMI-9")
        #expect(wrong.status != 0 && wrong.error.contains("no monitor 'HDMI-9'"), "\(wrong.error)")
        #expect(try rig.ctl("set", "display.layer", "window").status == 0)
        #expect(TestRig.wait(timeout: 10) { ((try? window()).map { !override($0) }) == true })
    }
}
