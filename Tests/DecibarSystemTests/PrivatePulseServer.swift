import Foundation

/// A PulseAudio server of the test's own, with a float32 null sink `viz`, started by the project's
/// script and stopped by PID. Each test gets one, so tests can switch sinks or kill the server freely.
final class PrivatePulseServer {
    let directory: String
    private(set) var isRunning = false

    init() throws {
        directory = try TestRig.temporaryDirectory()
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var serverAddress: String { "unix:\(directory)/pulse.sock" }

    /// The environment a client of this server needs.
    var environment: [String: String] {
        ["PULSE_SERVER": serverAddress, "PULSE_COOKIE": directory + "/cookie",
         "XDG_RUNTIME_DIR": directory + "/run"]
    }

    func start() throws {
        let result = try TestRig.run(TestRig.packageRoot + "/Scripts/pulse-start.sh", [directory])
        guard result.status == 0 else { throw RigError("PulseAudio did not start: \(result.error)") }
        isRunning = true
    }

    func stop() {
        guard isRunning else { return }
        _ = try? TestRig.run(TestRig.packageRoot + "/Scripts/pulse-stop.sh", [directory])
        isRunning = false
    }

    /// Runs `pactl` against this server.
    @discardableResult
    func pactl(_ arguments: String...) throws -> String {
        let result = try TestRig.run("pactl", arguments, environment: environment)
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

    /// Moves the playback stream of `file` (as paplay names it) to `sink`.
    func movePlayback(of file: String, to sink: String) throws {
        let name = (file as NSString).lastPathComponent
        guard let (index, _) = try objects("sink-inputs").first(where: { $0.text.contains("\(name)\"") && $0.text.contains("media.name = ") }) else {
            throw RigError("no playback stream for \(name)")
        }
        try pactl("move-sink-input", index, sink)
    }

    /// Records `source` (raw float32 at 48 kHz) into `path` with parec, from a moment after the
    /// call; kill the returned process to stop.
    func record(from source: String = "viz.monitor", channels: Int = 2, channelMap: String? = nil,
                to path: String) throws -> Process {
        var arguments = ["-d", source, "--format=float32le", "--rate=48000", "--channels=\(channels)", "--raw", "--latency-msec=20"]
        if let channelMap { arguments.append("--channel-map=\(channelMap)") }
        let recorder = Process(tool: "parec", arguments: arguments + [path], environment: environment,
                               output: FileHandle.nullDevice, errors: FileHandle.nullDevice)
        try recorder.run()
        // Recording once the file grows (the monitor sends silence when nothing plays).
        TestRig.wait(timeout: 5) { ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) > 0 }
        return recorder
    }

    /// Starts playing `file` into `sink` with paplay; the returned process ends when the file does.
    func play(_ file: String, sink: String = "viz") throws -> Process {
        let process = Process(tool: "paplay", arguments: ["--device=\(sink)", file], environment: environment,
                              output: FileHandle.nullDevice, errors: FileHandle.nullDevice)
        try process.run()
        return process
    }
}
