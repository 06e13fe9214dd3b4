import Foundation

/// Which sound server a test talks to, and how decibar reaches it: PulseAudio itself; PipeWire
/// (what most current distributions run) through its own protocol, which decibar takes by itself
/// there; or PipeWire through pipewire-pulse, as decibar does when PipeWire's own socket does not
/// answer. The players (paplay, pactl) use pipewire-pulse on both PipeWire kinds.
enum SoundServerKind: String, CaseIterable, Sendable {
    case pulseaudio
    case pipewire
    case pipewirePulse

    var scriptPrefix: String { self == .pulseaudio ? "pulse" : "pipewire" }
    var isPipeWire: Bool { self != .pulseaudio }
}

/// A sound server of the test's own, with a float32 null sink `viz`, started by the project's
/// script and stopped by PID. Each test gets one, so tests can switch sinks or kill the server freely.
final class PrivatePulseServer {
    let directory: String
    let kind: SoundServerKind
    private(set) var isRunning = false

    init(kind: SoundServerKind = .pulseaudio) throws {
        self.kind = kind
        directory = try TestRig.temporaryDirectory()
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var serverAddress: String { "unix:\(directory)/pulse.sock" }

    /// The environment decibar needs to reach this server as the kind says.
    var environment: [String: String] {
        var environment = toolEnvironment
        // No PipeWire socket answers there: decibar's auto backend falls back to libpulse.
        if kind == .pipewirePulse { environment["PIPEWIRE_REMOTE"] = directory + "/no-pipewire-here" }
        return environment
    }

    /// The environment the players and pactl need.
    var toolEnvironment: [String: String] {
        ["PULSE_SERVER": serverAddress, "PULSE_COOKIE": directory + "/cookie",
         "XDG_RUNTIME_DIR": directory + "/run"]
    }

    func start() throws {
        let script = TestRig.packageRoot + "/Scripts/\(kind.scriptPrefix)-start.sh"
        let result: (status: Int32, error: String)
        if kind.isPipeWire {
            result = Self.runScript(script, directory)
        } else {
            let run = try TestRig.run(script, [directory])
            result = (run.status, run.error)
        }
        guard result.status == 0 else {
            let log = (try? String(contentsOfFile: directory + "/pulse.log", encoding: .utf8)) ?? ""
            throw RigError("\(kind.rawValue) did not start: \(result.error) \(log.suffix(600))")
        }
        isRunning = true
    }

    func stop() {
        guard isRunning else { return }
        let script = TestRig.packageRoot + "/Scripts/\(kind.scriptPrefix)-stop.sh"
        if kind.isPipeWire { _ = Self.runScript(script, directory) } else { _ = try? TestRig.run(script, [directory]) }
        isRunning = false
    }

    /// Runs PipeWire's start or stop script and reaps it with waitpid. (Foundation's Process has
    /// been seen to leave that script a zombie it never notices, once it had started its
    /// dbus-daemon, and then to wait forever.)
    static func runScript(_ path: String, _ argument: String) -> (status: Int32, error: String) {
        let log = argument + "/script-\(UInt32.random(in: 0 ... .max)).log"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // A clean signal state, as a shell would give it: the test process's threads may block some.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(path), strdup(argument), nil]
        defer { arguments.forEach { free($0) } }
        let spawned = Process.spawnLock.withLock { _ in Process.closeDescriptorsOnExec(); return posix_spawn(&pid, path, &actions, &attributes, arguments, environ) }
        guard spawned == 0 else { return (127, "cannot run \(path)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let error = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: log)
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), error)
    }

    /// Runs `pactl` against this server.
    @discardableResult
    func pactl(_ arguments: String...) throws -> String {
        let result = try TestRig.run("pactl", arguments, environment: toolEnvironment)
        guard result.status == 0 else { throw RigError("pactl \(arguments.joined(separator: " ")) failed: \(result.error)") }
        return String(decoding: result.output, as: UTF8.self)
    }

    /// Adds another float32 null sink.
    func addNullSink(named name: String) throws {
        try pactl("load-module", "module-null-sink", "sink_name=\(name)", "rate=48000", "channels=2",
                  "format=float32le", "norewinds=1")
    }

    /// Blocks of `pactl list KIND`, one per object, keyed by their first line (e.g. `Sink Input #3`).
    private func objects(_ kind: String) throws -> [(index: String, text: String)] {
        let listing = try pactl("list", kind)
        return listing.components(separatedBy: "\n\n").compactMap { block in
            guard let header = block.split(separator: "\n").first, let hash = header.firstIndex(of: "#") else { return nil }
            return (String(header[header.index(after: hash)...]), block)
        }
    }

    /// The name of the source Decibar's record stream is connected to, if any.
    func tappedSourceName() throws -> String? {
        if kind == .pipewire { return try linkedSourceName() }
        let sourceNames = try pactl("list", "sources", "short").split(separator: "\n").reduce(into: [String: String]()) {
            let fields = $1.split(separator: "\t")
            if fields.count > 1 { $0[String(fields[0])] = String(fields[1]) }
        }
        for (_, text) in try objects("source-outputs") where text.contains("application.name = \"Decibar\"") {
            let sourceLine = text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Source:") }
            let index = sourceLine?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
            return index.flatMap { sourceNames[$0] }
        }
        return nil
    }

    /// A PipeWire node's id by its `node.name`, from `pw-dump`.
    func nodeID(named name: String) throws -> Int {
        let dump = try TestRig.run("pw-dump", [], environment: toolEnvironment)
        let objects = try JSONSerialization.jsonObject(with: dump.output) as? [[String: Any]] ?? []
        for object in objects where object["type"] as? String == "PipeWire:Interface:Node" {
            let properties = (object["info"] as? [String: Any])?["props"] as? [String: Any]
            if properties?["node.name"] as? String == name, let id = object["id"] as? Int { return id }
        }
        throw RigError("no PipeWire node named \(name)")
    }

    /// On PipeWire's own protocol: the source whose ports are linked into decibar's capture node,
    /// as PulseAudio would name it (a sink's monitor ports: `viz.monitor`), from `pw-link -l`.
    private func linkedSourceName() throws -> String? {
        let listing = try TestRig.run("pw-link", ["-l"], environment: toolEnvironment)
        var port: Substring?
        for line in String(decoding: listing.output, as: UTF8.self).split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.first?.isWhitespace == false {
                port = line[...]
            } else if trimmed.hasPrefix("|->"), trimmed.contains("decibar-tap:"), let port, let colon = port.firstIndex(of: ":") {
                let node = port[..<colon]
                return port[colon...].contains("monitor_") ? "\(node).monitor" : String(node)
            }
        }
        return nil
    }

    /// The sink the playback stream of `file` (as paplay names it) plays to, and the stream's index.
    func playback(of file: String) throws -> (index: String, sink: String) {
        let name = (file as NSString).lastPathComponent
        guard let (index, text) = try objects("sink-inputs").first(where: { $0.text.contains("\(name)\"") && $0.text.contains("media.name = ") }) else {
            throw RigError("no playback stream for \(name)")
        }
        let sinkNames = try pactl("list", "sinks", "short").split(separator: "\n").reduce(into: [String: String]()) {
            let fields = $1.split(separator: "\t")
            if fields.count > 1 { $0[String(fields[0])] = String(fields[1]) }
        }
        let sinkLine = text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Sink:") }
        let sinkIndex = sinkLine?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? ""
        return (index, sinkNames[sinkIndex] ?? sinkIndex)
    }

    /// Moves the playback stream of `file` back to `sink` if the server moved it elsewhere.
    func keepPlayback(of file: String, on sink: String) throws {
        let stream = try playback(of: file)
        if stream.sink != sink { try pactl("move-sink-input", stream.index, sink) }
    }

    /// Records `source` (raw float32 at 48 kHz) into `path` with parec, from a moment after the
    /// call; kill the returned process to stop.
    func record(from source: String = "viz.monitor", channels: Int = 2, channelMap: String? = nil,
                to path: String) throws -> Process {
        var arguments = ["-d", source, "--format=float32le", "--rate=48000", "--channels=\(channels)", "--raw", "--latency-msec=20"]
        if let channelMap { arguments.append("--channel-map=\(channelMap)") }
        let recorder = Process(tool: "parec", arguments: arguments + [path], environment: toolEnvironment,
                               output: FileHandle.nullDevice, errors: FileHandle.nullDevice)
        try recorder.startAlone()
        // Recording once the file grows (the monitor sends silence when nothing plays).
        TestRig.wait(timeout: 5) { ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) > 0 }
        return recorder
    }

    /// Starts playing `file` into `sink` with paplay; the returned process ends when the file does.
    /// `app` names the stream's application (`application.name`), as a music player's would.
    /// On PipeWire, `pinned: false` lets the stream be moved (`pactl move-sink-input`), and the
    /// default output's changes move it too.
    func play(_ file: String, sink: String = "viz", app: String? = nil, pinned: Bool = true) throws -> Process {
        // WirePlumber links a stream to the sink it names (target.object), but once that sink is
        // the default it makes the stream follow the default, moving it some time after each
        // switch (policy-node.lua's checkFollowDefault), unless the stream says it must not be
        // re-linked. PulseAudio moves such streams at once, with the switch (see `keepPlayback`).
        let pinned = kind.isPipeWire && pinned ? ["--property=target.object=\(sink)", "--property=node.dont-reconnect=true"] : []
        let named = app.map { ["--property=application.name=\($0)"] } ?? []
        let process = Process(tool: "paplay", arguments: ["--device=\(sink)"] + pinned + named + [file], environment: toolEnvironment,
                              output: FileHandle.nullDevice, errors: FileHandle.nullDevice)
        try process.startAlone()
        return process
    }
}
