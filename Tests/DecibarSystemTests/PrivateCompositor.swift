import Foundation

/// A headless sway of a test's own (Scripts/sway-start.sh): a wlroots compositor with
/// wlr-layer-shell and one output, HEADLESS-1. Screenshots come from grim, windows are foot
/// terminals, and the pointer is sway's own (`swaymsg seat`: no input device is needed).
final class PrivateCompositor {
    let directory: String
    let socket: String
    let ipcSocket: String
    let width: Int
    let height: Int
    private var isStopped = false

    init(size: String = "1280x720", scale: Int = 1) throws {
        directory = try TestRig.temporaryDirectory()
        let started = try TestRig.run(TestRig.packageRoot + "/Scripts/sway-start.sh", [directory, size, "\(scale)"])
        guard started.status == 0 else { throw RigError("sway did not start: \(started.error)") }
        socket = String(decoding: started.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = (try? String(contentsOfFile: directory + "/sway.pid", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let folder = directory + "/sway"
        guard let ipc = try FileManager.default.contentsOfDirectory(atPath: folder).first(where: { $0.hasSuffix(".\(pid).sock") }) else {
            throw RigError("sway's IPC socket is missing")
        }
        ipcSocket = folder + "/" + ipc
        let sides = size.split(separator: "x").compactMap { Int($0) }
        (width, height) = (sides[0], sides[1])
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What a client of this compositor needs (and no X display, so SDL's window is a Wayland one).
    var environment: [String: String] { ["WAYLAND_DISPLAY": socket, "DISPLAY": "", "SWAYSOCK": ipcSocket] }

    /// Kills sway at once (SIGKILL: no goodbye to its clients).
    func kill() {
        guard let pid = Int32((try? String(contentsOfFile: directory + "/sway.pid", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") else { return }
        Glibc.kill(pid, SIGKILL)
    }

    /// Stops sway (if it still runs) and removes its runtime folder.
    func stop() {
        guard !isStopped else { return }
        _ = try? TestRig.run(TestRig.packageRoot + "/Scripts/sway-stop.sh", [directory])
        isStopped = true
    }

    @discardableResult
    func swaymsg(_ arguments: [String]) throws -> String {
        let result = try TestRig.run("swaymsg", arguments, environment: environment)
        guard result.status == 0 else { throw RigError("swaymsg \(arguments.joined(separator: " ")): \(result.error)") }
        return String(decoding: result.output, as: UTF8.self)
    }

    /// The windows (views) sway manages: app id, whether focused, and where.
    func windows() throws -> [(appID: String, focused: Bool, rect: (x: Int, y: Int, width: Int, height: Int))] {
        let tree = try JSONSerialization.jsonObject(with: Data(try swaymsg(["-t", "get_tree"]).utf8))
        var found: [(String, Bool, (Int, Int, Int, Int))] = []
        func walk(_ node: Any) {
            guard let node = node as? [String: Any] else { return }
            if let app = node["app_id"] as? String, let rect = node["rect"] as? [String: Int] {
                found.append((app, node["focused"] as? Bool ?? false, (rect["x"] ?? 0, rect["y"] ?? 0, rect["width"] ?? 0, rect["height"] ?? 0)))
            }
            for key in ["nodes", "floating_nodes"] { (node[key] as? [Any])?.forEach(walk) }
        }
        walk(tree)
        return found.map { (appID: $0.0, focused: $0.1, rect: (x: $0.2.0, y: $0.2.1, width: $0.2.2, height: $0.2.3)) }
    }

    /// A foot terminal with a white background, once sway manages it.
    func terminal(appID: String) throws -> RunningCommand {
        let foot = try RunningCommand(["--app-id", appID, "-o", "colors.background=ffffff", "-o", "colors.foreground=ffffff"],
                                      environment: environment, tool: "foot")
        guard TestRig.wait(timeout: 10, until: { ((try? self.windows()) ?? []).contains { $0.appID == appID } }) else {
            foot.stop()
            throw RigError("foot's window did not appear: \(foot.standardError)")
        }
        return foot
    }

    /// The output as it shows now.
    func grab(to path: String) throws -> RenderTests.Frame {
        let grabbed = try TestRig.run("grim", [path], environment: environment)
        guard grabbed.status == 0 else { throw RigError("grim: \(grabbed.error)") }
        return try RenderTests.Frame(png: path, width: width, height: height)
    }

    /// Presses and releases the left button at output position x, y.
    func click(at x: Int, _ y: Int) throws {
        try swaymsg(["seat", "seat0", "cursor", "set", "\(x)", "\(y)"])
        try swaymsg(["seat", "seat0", "cursor", "press", "button1"])
        try swaymsg(["seat", "seat0", "cursor", "release", "button1"])
    }
}
