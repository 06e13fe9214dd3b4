import DecibarApp
import DecibarCore
import Foundation
import Testing

/// The window explaining itself, as a person meets it: keys and the pointer sent by xdotool to the
/// daemon's window on a private X server, and what shows read off its frames by tesseract.
@Suite("On-screen display: help, stats, controller, lists", .serialized)
struct OnScreenTests {
    static let size = (width: 1280, height: 720)

    /// The daemon's window on a display of its own, shown, with its keys and pointer.
    final class Window {
        let screen: PrivateDisplay
        let rig: DaemonRig
        let id: String
        let folder: String

        init(config: String = "", arguments: [String] = [], state: String? = nil) throws {
            screen = try PrivateDisplay()
            folder = try TestRig.temporaryDirectory()
            rig = try DaemonRig(config: config, arguments: ["--size", "\(OnScreenTests.size.width)x\(OnScreenTests.size.height)"] + arguments,
                                environment: ["DISPLAY": screen.display, "XDG_STATE_HOME": state ?? folder + "/state"])
            let shown = try rig.ctl("show")
            guard shown.status == 0 else { throw RigError("the window did not show: \(shown.error) \(rig.daemon?.standardError ?? "")") }
            id = try screen.window(of: try #require(rig.daemon).process.processIdentifier)
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }

        func key(_ name: String) throws { try screen.xdotool(["windowfocus", "--sync", id, "key", name]) }
        func type(_ text: String) throws { try screen.xdotool(["windowfocus", "--sync", id, "type", "--delay", "40", text]) }
        func point(_ x: Int, _ y: Int) throws { try screen.xdotool(["mousemove", "--window", id, "\(x)", "\(y)"]) }

        /// The next frame the window draws, as a PNG.
        func shot(_ name: String) throws -> String {
            let path = folder + "/\(name).png"
            let result = try rig.ctl("screenshot", path)
            guard result.status == 0 else { throw RigError("screenshot: \(result.error)") }
            return path
        }

        /// What tesseract reads on the next frame.
        func read(_ name: String) throws -> String { try TextReader.text(in: try shot(name)) }
    }

    /// The frame's pixels, RGBA.
    static func pixels(_ png: String) throws -> Data {
        let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        guard decoded.status == 0, !decoded.output.isEmpty else { throw RigError("cannot decode \(png): \(decoded.error)") }
        return decoded.output
    }

    /// The lines tesseract reads in a part of a frame (a block of text: one line each).
    static func lines(in png: String, x: Int, y: Int, width: Int, height: Int) throws -> [String] {
        let cropped = png.replacingOccurrences(of: ".png", with: "-part.png")
        let crop = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", png, "-vf", "crop=\(width):\(height):\(x):\(y)", cropped])
        guard crop.status == 0 else { throw RigError("cannot crop \(png): \(crop.error)") }
        let read = try TestRig.run("tesseract", [cropped, "stdout", "--psm", "6", "-l", "eng"])
        return String(decoding: read.output, as: UTF8.self).lowercased().split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.filter(\.isLetter).count >= 3 }
    }

    @Test("? lists the window's keys from the key table ([keys] included, no Milkdrop key in bars), and in Milkdrop its presets' too; ? again leaves the picture as it was")
    func help() throws {
        // Milkdrop's keys are read over a plain preset: over the default list's moving pictures,
        // tesseract's threshold for the whole frame fell between a bright picture and the box and
        // lost words a person reads plainly, the pink headings most often (5 of 30 frames).
        let presets = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: presets) }
        try MilkdropTests.colorPreset(red: 0.1, green: 0.12, blue: 0.18).write(toFile: presets + "/plain.milk", atomically: true, encoding: .utf8)
        let window = try Window(config: "[keys]\ng = \"cycle theme\"\n", arguments: ["--preset-dir", presets])
        // The device's name shows for a moment after the tap connects: then the picture is still.
        Thread.sleep(forTimeInterval: 3.5)
        let before = try Self.pixels(try window.shot("before"))
        try window.key("question")
        let help = try window.read("help")
        #expect(help.contains("mode next") && help.contains("fullscreen") && help.contains("cycle theme"), "\(help)")
        // (The window's own / lists the presets to choose from; Milkdrop's keys move through them.)
        #expect(!help.contains("preset next") && !help.contains("toggle-lock"), "\(help)")
        try window.key("question")
        #expect(TestRig.wait(timeout: 3) { (try? Self.pixels(try window.shot("after"))) == before }, "the help left something on the picture")

        #expect(try window.rig.ctl("set", "mode", "milkdrop").status == 0)
        try window.key("F1")
        let milkdrop = try window.read("milkdrop-help")
        #expect(milkdrop.contains("preset next") && milkdrop.contains("milkdrop"), "\(milkdrop)")
    }

    @Test("the pointer's move shows the controller at once; 2 s still, the picture is as if it never showed; a press on it over the scrubber does not seek")
    func controller() throws {
        let window = try Window()
        let song = window.folder + "/tone.wav"
        try TestRig.makeTone(at: song, amplitude: 0.3, seconds: 20)
        Thread.sleep(forTimeInterval: 3.5)
        let before = try Self.pixels(try window.shot("before"))
        try window.point(600, 300)
        let moved = TestRig.now()
        try window.point(620, 310)
        let path = try window.shot("controller")
        let delay = TestRig.now() - moved
        let shown = try TextReader.text(in: path)
        #expect(shown.contains("bars") && shown.contains("theme neon"), "\(shown)")
        // A screenshot is a frame drawn and read back: a sanitizer triples what that takes.
        let goal = ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] == nil ? 0.3 : 1.0
        #expect(delay < goal, "the controller's frame came \(delay) s after the move")
        Thread.sleep(forTimeInterval: 2)
        #expect(try Self.pixels(try window.shot("still")) == before, "the controller left something on the picture")

        // The player's scrubber lies under the controller's bar: a press there is the controller's.
        #expect(try window.rig.ctl("open", song).status == 0)
        #expect(TestRig.wait(timeout: 10) { ((try? window.rig.player("duration"))?.number ?? 0) > 19 })
        #expect(try window.rig.ctl("pause").status == 0)
        #expect(try window.rig.ctl("seek", "2").status == 0)
        let layout = PlayLayout(width: Self.size.width, height: Self.size.height)
        let barTop = Self.size.height - OnScreenLayout.controllerHeight(textSize: OnScreenLayout.textSize(height: Self.size.height))
        let y = max(barTop + 4, layout.scrubberTop + layout.scrubberHeight / 2)
        try #require(y < layout.scrubberTop + layout.scrubberHeight, "the scrubber is not under the controller here")
        let x = layout.scrubberLeft + layout.scrubberWidth * 3 / 4
        try window.point(x - 5, y)
        try window.screen.xdotool(["mousemove", "--window", window.id, "\(x)", "\(y)", "click", "1"])
        Thread.sleep(forTimeInterval: 0.5)
        let position = try window.rig.player("position")?.number ?? -1
        #expect(abs(position - 2) < 0.05, "the press reached the scrubber: the playhead is at \(position) s")
    }

    @Test("L, geiss: every line listed has geiss in it; Enter shows it; * keeps it a favourite across runs, and --preset-list favourites plays it")
    func presetPicker() throws {
        let state = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        var chosen = ""
        do {
            let window = try Window(arguments: ["--mode", "milkdrop", "--seed", "1"], state: state)
            try window.key("L")
            try window.type("geiss")
            Thread.sleep(forTimeInterval: 0.5)
            let shot = try window.shot("picker")
            let text = OnScreenLayout.textSize(height: Self.size.height)
            let box = OnScreenLayout.pickerWidth(width: Self.size.width, textSize: text)
            // The list's lines, below its title and query, above its footer.
            let lines = try Self.lines(in: shot, x: (Self.size.width - box) / 2, y: 7 * text, width: box, height: Self.size.height - 13 * text)
            #expect(lines.count >= 8, "\(lines)")
            #expect(lines.allSatisfy { $0.contains("geiss") }, "\(lines)")
            try window.key("Return")
            #expect(TestRig.wait(timeout: 2) {
                (try? window.rig.ctl("preset"))?.output.lowercased().contains("geiss") == true
            }, "\(String(describing: try? window.rig.ctl("preset")))")
            chosen = try window.rig.ctl("preset").output.trimmingCharacters(in: .whitespacesAndNewlines)
            try window.key("asterisk")
            #expect(TestRig.wait(timeout: 2) {
                guard let data = FileManager.default.contents(atPath: state + "/decibar/presets.json") else { return false }
                return (try? PresetMemory(json: data))?.favourites == [chosen]
            })
            #expect(try window.rig.ctl("quit").status == 0)
        }
        let again = try Window(arguments: ["--mode", "milkdrop", "--preset-list", "favourites"], state: state)
        #expect(TestRig.wait(timeout: 5) { (try? again.rig.ctl("preset"))?.output.contains(chosen) == true })
        // The list opens on the preset shown, the favourite; the selection moved off it, it reads plainly.
        try again.key("slash")
        try again.key("Down")
        let marked = try again.read("marked")
        #expect(marked.contains("* " + chosen.lowercased().prefix(8)) || marked.contains("*" + chosen.lowercased().prefix(8)), "\(marked)")
    }

    @Test("the source list holds an app playing and a second output; choosing the app makes the tap hear it alone")
    func sourcePicker() throws {
        let window = try Window()
        try window.rig.server.pactl("load-module", "module-null-sink", "sink_name=second", "sink_properties=device.description=Second")
        let tone = window.folder + "/marker.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.3, seconds: 30)
        let player = try window.rig.server.play(tone, app: "marker")
        defer { player.kill() }
        #expect(try window.rig.ctl("picker", "sources").status == 0)
        Thread.sleep(forTimeInterval: 1.5)
        let listed = try window.read("sources")
        #expect(listed.contains("app: marker") && listed.contains("output: second"), "\(listed)")
        try window.type("marker")
        try window.key("Return")
        #expect(TestRig.wait(timeout: 5) {
            guard case .object(let tap)? = try? window.rig.status()["tap"] else { return false }
            return tap["heard"]?.string == "marker" && tap["state"]?.string == "capturing"
        }, "\(String(describing: try? window.rig.status()["tap"]))")
        // The daemon's own levels follow marker: its tone, then silence once it stops.
        func level() throws -> Double {
            let result = try TestRig.run(TestRig.decibar, ["levels", "--rate", "5", "--duration", "1"], environment: window.rig.environment)
            let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { LevelsLine(String($0)) }
            return try #require(lines.last, "levels printed nothing: \(result.error)").rmsDB[0]
        }
        #expect(abs(try level() - -13.5) < 1.5)
        player.kill()
        #expect(TestRig.wait(timeout: 5) { ((try? level()) ?? 0) < -100 })
    }

    @Test("i: the frames a second read on screen are within 10 % of the frames drawn")
    func stats() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/frames.log"
        let window = try Window(arguments: ["--frame-log", log])
        try window.key("i")
        Thread.sleep(forTimeInterval: 1.5)
        let shot = window.folder + "/stats.png"
        let reply = try window.rig.ctl("--json", "screenshot", shot)
        guard case .object(let data)? = JSONValue(parsing: Array(reply.output.utf8)), let drawnAt = data["drawn_at"]?.number else {
            throw RigError("screenshot: \(reply)")
        }
        let read = try TextReader.text(in: shot)
        let words = read.split(separator: " ")
        // (tesseract may read the panel's edge into the figure's word: "[58.7".)
        let figure = words.firstIndex(of: "fps").flatMap { $0 > 0 ? Double(words[$0 - 1].filter { $0.isNumber || $0 == "." }) : nil }
        let shownRate = try #require(figure, "no figure before fps in \(read)")
        // The figure is the second before the moment it was last worked out: twice a second, so
        // within the half second before the frame read. The frames drawn in each second ending then:
        let stamps = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { $0.split(separator: " ").first.flatMap { Double($0) } }
        let ends = stamps.filter { $0 >= drawnAt - 0.55 && $0 <= drawnAt }
        let drawn = ends.map { end in Double(stamps.filter { $0 > end - 1 && $0 <= end }.count) }
        #expect(drawn.contains { abs(shownRate - $0) <= $0 * 0.1 }, "shown \(shownRate) fps; drawn in the seconds it may cover: \(drawn)")
    }

    @Test("a damaged favourites file is one warning line; the window opens and its list works")
    func damagedState() throws {
        let state = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try FileManager.default.createDirectory(atPath: state + "/decibar", withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        try Data((0 ..< 512).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }).write(to: URL(fileURLWithPath: state + "/decibar/presets.json"))
        let window = try Window(arguments: ["--mode", "milkdrop", "--seed", "1"], state: state)
        try window.key("L")
        // Read off frames drawn over a moving picture: a frame where the words are not read is
        // followed by the next, for up to 5 s.
        var listed = ""
        #expect(try TestRig.wait(timeout: 5) {
            listed = try window.read("list")
            return listed.contains("presets")
        }, "\(listed)")
        let daemon = try #require(window.rig.daemon)
        let warnings = daemon.standardError.split(separator: "\n").filter { $0.contains("damaged") }
        #expect(warnings.count == 1, "\(daemon.standardError)")
        #expect(try window.rig.ctl("status").status == 0)
    }

    /// Drops `items` on the window as a file manager would (XDND, Scripts/xdnd-drop.py).
    static func drop(_ items: [String], on id: String, screen: PrivateDisplay, shift: Bool = false) throws {
        let result = try TestRig.run(TestRig.packageRoot + "/Scripts/xdnd-drop.py", [id, "200", "200"] + (shift ? ["--shift"] : []) + items,
                                     environment: ["DISPLAY": screen.display])
        guard result.status == 0 else { throw RigError("the drop was not taken: \(result.error)") }
    }

    @Test("files dropped on the daemon's window open its player, more join the list, one that cannot play is said and the daemon stays")
    func dropOnDaemon() throws {
        let window = try Window()
        let first = window.folder + "/first.wav", second = window.folder + "/second song.wav", broken = window.folder + "/broken.flac"
        try TestRig.makeTone(at: first, amplitude: 0.3, seconds: 20)
        try TestRig.makeTone(at: second, amplitude: 0.3, seconds: 20)
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: broken))
        try Self.drop([first], on: window.id, screen: window.screen)
        #expect(TestRig.wait(timeout: 5) { (try? window.rig.player("file"))??.string == first })
        #expect(try window.rig.player("state")?.string == "playing")
        try Self.drop([second], on: window.id, screen: window.screen)
        #expect(TestRig.wait(timeout: 5) {
            guard case .array(let list)? = try? window.rig.player("playlist") else { return false }
            return list == [.string(first), .string(second)]
        })
        #expect(try window.rig.player("file")?.string == first)
        try Self.drop([broken], on: window.id, screen: window.screen, shift: true)
        Thread.sleep(forTimeInterval: 1)
        #expect(try window.rig.ctl("status").status == 0)
        #expect(window.rig.daemon?.isRunning == true)
    }

    @Test("a file dropped on a live window opens the player in it")
    func dropOnLive() throws {
        let screen = try PrivateDisplay()
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try PrivatePulseServer()
        let song = folder + "/dropped tone.wav"
        try TestRig.makeTone(at: song, amplitude: 0.3, seconds: 20)
        let live = try RunningCommand(["live", "--size", "960x540", "--exit-after", "8"],
                                      environment: server.environment.merging(["DISPLAY": screen.display, "XDG_STATE_HOME": folder]) { $1 })
        let id = try screen.window(of: live.process.processIdentifier)
        Thread.sleep(forTimeInterval: 1)
        try Self.drop([song], on: id, screen: screen)
        #expect(TestRig.wait(timeout: 5) { ((try? screen.xdotool(["getwindowname", id])) ?? "").contains("dropped tone") },
                "\(String(describing: try? screen.xdotool(["getwindowname", id])))")
        #expect(live.waitForExit(timeout: 20) == 0, "\(live.standardError)")
    }

    @Test("a recording and a desktop layer never show the controller or a toast, whatever the pointer and keys do")
    func neverRecordedOrLayered() throws {
        let screen = try PrivateDisplay()
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try PrivatePulseServer()
        let video = folder + "/recorded.mp4"
        let live = try RunningCommand(["live", "--size", "1280x720", "--record", video, "--exit-after", "4"],
                                      environment: server.environment.merging(["DISPLAY": screen.display, "XDG_STATE_HOME": folder]) { $1 })
        let id = try screen.window(of: live.process.processIdentifier)
        for step in 0 ..< 10 {
            try screen.xdotool(["mousemove", "--window", id, "\(400 + step * 20)", "\(300 + step * 10)"])
            // A change of mode: said over the picture in a window, never in a recording.
            if step == 3 { try screen.xdotool(["windowfocus", "--sync", id, "key", "m"]) }
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(live.waitForExit(timeout: 20) == 0, "\(live.standardError)")
        for second in [1, 2, 3] {
            let frame = folder + "/frame\(second).png"
            let extract = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-ss", "\(Double(second) - 0.5)", "-i", video, "-frames:v", "1", frame])
            try #require(extract.status == 0, "\(extract.error)")
            let read = try TextReader.text(in: frame)
            #expect(!read.contains("theme") && !read.contains("mode"), "frame at \(second) s: \(read)")
        }

        let shot = folder + "/layer.png"
        let layer = try RunningCommand(["live", "--layer", "background", "--exit-after", "4", "--screenshot", shot],
                                       environment: server.environment.merging(["DISPLAY": screen.display, "XDG_STATE_HOME": folder]) { $1 })
        _ = try screen.window(of: layer.process.processIdentifier)
        for step in 0 ..< 12 {
            try screen.xdotool(["mousemove", "\(400 + step * 20)", "\(300 + step * 10)"])
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(layer.waitForExit(timeout: 20) == 0, "\(layer.standardError)")
        let read = try TextReader.text(in: shot)
        #expect(!read.contains("theme") && !read.contains("bars"), "\(read)")
    }
}
