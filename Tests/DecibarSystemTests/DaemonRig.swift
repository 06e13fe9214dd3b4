import DecibarApp
import DecibarCore
import Foundation
import Testing

/// A `decibar daemon` of the test's own: its private PulseAudio, its socket and config file, and
/// `ctl` to talk to it. Stopped (SIGTERM, then SIGKILL) when the rig goes.
final class DaemonRig {
    let server: PrivatePulseServer
    let socket: String
    let config: String
    private(set) var daemon: RunningCommand?

    /// Added to every process's environment (a private DISPLAY, say).
    let extraEnvironment: [String: String]

    /// A command the daemon runs under (`setpriv ... --`), if any.
    let launcher: [String]

    init(config text: String = "", arguments: [String] = [], environment: [String: String] = [:],
         server kind: SoundServerKind = .pulseaudio, launcher: [String] = []) throws {
        extraEnvironment = environment
        self.launcher = launcher
        server = try PrivatePulseServer(kind: kind)
        socket = server.directory + "/run/decibar/control.sock"
        config = server.directory + "/config.toml"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        try start(arguments)
    }

    deinit { daemon?.stop() }

    var environment: [String: String] {
        server.environment.merging(["XDG_CONFIG_HOME": server.directory + "/xdg"]) { $1 }.merging(extraEnvironment) { $1 }
    }

    func start(_ arguments: [String] = []) throws {
        let command = ["daemon", "--config", config] + arguments
        let daemon = try launcher.isEmpty ? RunningCommand(command, environment: environment)
            : RunningCommand(Array(launcher.dropFirst()) + [TestRig.decibar] + command, environment: environment, tool: launcher[0])
        self.daemon = daemon
        guard TestRig.wait(timeout: 10, until: { (try? ControlConnectionClient(path: socket, timeout: 2)) != nil }) else {
            throw RigError("the daemon did not listen within 10 s: \(daemon.standardError)")
        }
    }

    /// `decibar ctl ARGS`: status, stdout, stderr.
    @discardableResult
    func ctl(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
        let result = try TestRig.run(TestRig.decibar, ["ctl"] + arguments, environment: environment)
        return (result.status, String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .newlines), result.error)
    }

    /// A connection of the test's own.
    func connect(timeout: Double? = 10) throws -> ControlConnectionClient {
        try ControlConnectionClient(path: socket, timeout: timeout)
    }

    /// The daemon's status as `get_status` gives it.
    func status() throws -> [String: JSONValue] {
        let reply = try connect().request(["get_status"])
        guard case .object(let status)? = reply.data else { throw RigError("no status: \(reply.error)") }
        return status
    }

    func player(_ key: String) throws -> JSONValue? {
        guard case .object(let player)? = try status()["player"] else { return nil }
        return player[key]
    }

    /// Plays a -6 dBFS 1 kHz tone into the null sink (RMS -9.03, peak -6.02 dBFS).
    func playTone(seconds: Double) throws -> Process {
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: seconds)
        return try server.play(tone)
    }

    /// The daemon's resident memory, in KiB.
    var residentKiB: Int {
        guard let pid = daemon?.process.processIdentifier,
              let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    /// The RMS (dBFS, first channel) the monitor hears over `seconds`, by `levels --standalone`.
    func heardRMS(seconds: Double = 1) throws -> Double {
        let result = try TestRig.run(TestRig.decibar, ["levels", "--standalone", "--rate", "5", "--duration", "\(seconds)"], environment: environment)
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { LevelsLine(String($0)) }
        guard let last = lines.last else { throw RigError("levels printed nothing: \(result.error)") }
        return last.rmsDB[0]
    }
}

extension RenderTests.Frame {
    /// A PNG decoded by ffmpeg; top-left origin.
    init(png path: String, width: Int = 320, height: Int = 180) throws {
        let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        guard decoded.output.count == width * height * 4 else { throw RigError("\(path): not a \(width)x\(height) PNG: \(decoded.error)") }
        try self.init(pixels: [UInt8](decoded.output), width: width, height: height, bottomUp: false)
    }
}
