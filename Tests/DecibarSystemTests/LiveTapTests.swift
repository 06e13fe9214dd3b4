import Foundation
import Testing

/// `decibar levels` on a real PulseAudio server with null sinks, and the tests that matter most
/// also on PipeWire (pipewire-pulse). Timing-sensitive, so one at a time.
@Suite("Live tap on a real PulseAudio server (and PipeWire)", .serialized)
struct LiveTapTests {
    @Test("a -6 dBFS 1 kHz stereo tone reads RMS -9.03 and peak -6.02 (±0.1 dB)", arguments: SoundServerKind.allCases)
    func toneLevels(on kind: SoundServerKind) throws {
        let server = try PrivatePulseServer(kind: kind)
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 4)
        let player = try server.play(tone)
        defer { player.kill() }
        let levels = try RunningCommand(["levels", "--duration", "2.5", "--rate", "10"], environment: server.environment)
        #expect(levels.waitForExit(timeout: 10) == 0)
        let lines = levels.output.compactMap { LevelsLine($0.text) }
        #expect(lines.count >= 20, "expected ~25 lines, got \(lines.count); stderr: \(levels.standardError)")
        // Skip the first and last half second: the tone may start or stop inside those windows.
        let steady = lines.filter { $0.time > 0.5 && $0.time < 2.0 }
        #expect(steady.count >= 10)
        for line in steady {
            #expect(line.channels == 2)
            #expect(line.reads(rms: -9.03, peak: -6.02, tolerance: 0.1), "\(line.rmsDB) \(line.peakDB)")
        }
        // PipeWire names the monitor differently ("viz Audio/Sink sink"); the source is the same.
        #expect(levels.standardError.contains(kind == .pulseaudio ? "listening to Monitor of Null Output (viz.monitor" : "(viz.monitor"),
                "\(levels.standardError)")
    }

    /// A loud tone on `viz` (RMS -9.03 dB) and a quiet one on a second sink `other` (-23.01 dB),
    /// and `levels --rate 100` once it hears viz, with a test for each tone's lines.
    static func loudAndQuietSinks(on server: PrivatePulseServer) throws
        -> (players: [Process], levels: RunningCommand, isLoud: (RunningCommand.Line) -> Bool, isQuiet: (RunningCommand.Line) -> Bool) {
        try server.addNullSink(named: "other")
        let loud = server.directory + "/loud.wav"
        let quiet = server.directory + "/quiet.wav"
        try TestRig.makeTone(at: loud, amplitude: 0.5, seconds: 20)
        try TestRig.makeTone(at: quiet, amplitude: 0.1, seconds: 20)
        let players = [try server.play(loud, sink: "viz"), try server.play(quiet, sink: "other")]
        let levels: RunningCommand
        do {
            levels = try RunningCommand(["levels", "--rate", "100"], environment: server.environment)
        } catch {
            players.forEach { $0.kill() }
            throw error
        }
        let isLoud = { (line: RunningCommand.Line) in LevelsLine(line.text)?.reads(rms: -9.03, peak: -6.02, tolerance: 0.2) == true }
        let isQuiet = { (line: RunningCommand.Line) in LevelsLine(line.text)?.reads(rms: -23.01, peak: -20.0, tolerance: 0.2) == true }
        #expect(levels.firstLine(timeout: 5, where: isLoud) != nil, "never heard viz: \(levels.standardError)")
        return (players, levels, isLoud, isQuiet)
    }

    @Test("switching the default sink moves the tap within 1 s, and it hears the new sink within 1 s", arguments: SoundServerKind.allCases)
    func followsDefaultSink(on kind: SoundServerKind) throws {
        let server = try PrivatePulseServer(kind: kind)
        let (players, levels, isLoud, isQuiet) = try Self.loudAndQuietSinks(on: server)
        defer { players.forEach { $0.kill() } }
        defer { levels.stop() }
        let loud = server.directory + "/loud.wav", quiet = server.directory + "/quiet.wav"

        for (sink, heard) in [("other", isQuiet), ("viz", isLoud), ("other", isQuiet)] {
            usleep(300_000)
            try server.pactl("set-default-sink", sink)
            let switched = TestRig.now()
            // PulseAudio moves the players to the new default with it (PipeWire's stay: see
            // `play`); put each tone back on its own sink, so the levels show which monitor the
            // tap really hears.
            try server.keepPlayback(of: loud, on: "viz")
            try server.keepPlayback(of: quiet, on: "other")
            // The server itself says where the tap's record stream is.
            var moved: Double?
            while moved == nil && TestRig.now() - switched < 3 {
                if try server.tappedSourceName() == "\(sink).monitor" { moved = TestRig.now() - switched } else { usleep(10_000) }
            }
            let delay = levels.firstLine(after: switched, timeout: 3, where: heard).map { $0.receivedAt - switched }
            let state = "the server's default is \((try? server.pactl("get-default-sink"))?.trimmingCharacters(in: .newlines) ?? "?"), "
                + "the tap records \(String(describing: (try? server.tappedSourceName()) ?? nil)); decibar said: \(levels.standardError)"
            #expect(moved != nil && moved! < 1.0, "moving to \(sink) took \(moved.map { "\($0) s" } ?? "over 3 s"); \(state)")
            #expect(delay != nil && delay! < 1.0, "hearing \(sink) took \(delay.map { "\($0) s" } ?? "over 3 s"); \(state)")
        }
        #expect(levels.isRunning)
        #expect(levels.standardError.contains("(other.monitor"))
    }

    @Test("when the server is killed and restarted the tap returns within 2 s, and the process never exits",
          arguments: SoundServerKind.allCases)
    func survivesServerRestart(on kind: SoundServerKind) throws {
        let server = try PrivatePulseServer(kind: kind)
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 30)
        var player = try server.play(tone)
        defer { player.kill() }
        let levels = try RunningCommand(["levels", "--rate", "50"], environment: server.environment)
        defer { levels.stop() }
        let isTone = { (line: RunningCommand.Line) in LevelsLine(line.text)?.reads(rms: -9.03, peak: -6.02, tolerance: 0.2) == true }
        #expect(levels.firstLine(timeout: 5, where: isTone) != nil)

        for _ in 0 ..< 2 {
            server.stop()
            player.kill()
            usleep(1_500_000)
            #expect(levels.isRunning, "decibar exited when the server went away")
            try server.start()
            let back = TestRig.now()
            player = try server.play(tone)
            let line = levels.firstLine(after: back, timeout: 5, where: isTone)
            let delay = line.map { $0.receivedAt - back }
            let state = "the player plays to \((try? server.playback(of: tone).sink) ?? "nothing"); the last line: "
                + "\(levels.output.last?.text ?? "none"); decibar said: \(levels.standardError)"
            #expect(delay != nil && delay! < 2.0, "tap came back after \(delay.map { "\($0) s" } ?? "never"); \(state)")
        }
        #expect(levels.isRunning)
        // One line per outage and per return, however many retries each outage took.
        let messages = levels.standardError
        #expect(messages.components(separatedBy: "waiting for audio server").count - 1 == 2, "\(messages)")
        #expect(messages.components(separatedBy: "listening to").count - 1 == 3, "\(messages)")
    }

    @Test("devices lists the null sink and marks its monitor as the default tap")
    func devices() throws {
        let server = try PrivatePulseServer()
        try server.addNullSink(named: "second")
        let result = try TestRig.run(TestRig.decibar, ["devices", "--json"], environment: server.environment)
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: result.output) as? [String: Any]
        #expect(object?["default_sink"] as? String == "viz")
        #expect(object?["default_monitor"] as? String == "viz.monitor")
        let sinks = (object?["sinks"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(sinks?.sorted() == ["second", "viz"])
        let table = try TestRig.run(TestRig.decibar, ["devices"], environment: server.environment)
        let text = String(decoding: table.output, as: UTF8.self)
        #expect(text.contains("* viz.monitor"))
        #expect(text.contains("  second.monitor"))
    }

    @Test("without a sound server, levels and devices fail with one line and a non-zero status")
    func noServer() throws {
        let directory = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["PULSE_SERVER": "unix:\(directory)/absent.sock", "PULSE_COOKIE": directory + "/cookie"]
        for arguments in [["levels", "--duration", "1"], ["devices"]] {
            let started = TestRig.now()
            let result = try TestRig.run(TestRig.decibar, arguments, environment: environment)
            #expect(result.status == 1)
            #expect(result.error.hasPrefix("decibar: no audio server"))
            #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
            #expect(TestRig.now() - started < 3)
        }
    }

    @Test("--source takes a source, or a sink's name for its monitor, and stays there")
    func namedSource() throws {
        let server = try PrivatePulseServer()
        try server.addNullSink(named: "other")
        let tone = server.directory + "/tone.wav"
        // Long enough for both runs however slowly each starts (under a sanitizer, seconds).
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 30)
        let player = try server.play(tone, sink: "other")
        defer { player.kill() }
        for name in ["other", "other.monitor"] {
            let levels = try RunningCommand(["levels", "--source", name, "--duration", "1", "--rate", "10"],
                                            environment: server.environment)
            #expect(levels.waitForExit(timeout: 10) == 0)
            // From the first line that hears the tone (paplay may start after the tap on a loaded
            // machine), a line later: every line reads the tone.
            let all = levels.output.compactMap { LevelsLine($0.text) }
            let toneStart = all.first { $0.peakDB[0] > -40 }?.time ?? .infinity
            let lines = all.filter { $0.time > max(0.2, toneStart + 0.1) }
            #expect(!lines.isEmpty)
            #expect(lines.allSatisfy { $0.reads(rms: -9.03, peak: -6.02, tolerance: 0.1) })
            #expect(levels.standardError.contains("(other.monitor,"))
        }
    }

    @Test("a source that does not exist is an error at start")
    func missingSource() throws {
        let server = try PrivatePulseServer()
        let result = try TestRig.run(TestRig.decibar, ["levels", "--source", "nowhere"], environment: server.environment)
        #expect(result.status == 1)
        #expect(result.error == "decibar: no source or sink named nowhere\n")
    }
}
