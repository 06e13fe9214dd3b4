import DecibarCore
import Foundation
import Testing

/// `levels --format waybar|ascii` on a real server: standalone and through a daemon, against cava
/// for the ascii shape.
@Suite("Status-bar feeds on a real server", .serialized)
struct StatusBarTests {
    /// 1.5 s at -6 dBFS (RMS -9.03: 85 %), 1.5 s at -26 dBFS (RMS -29.03: 52 %), then silence.
    func makeSteps(in folder: String) throws -> String {
        try TestRig.makeTone(at: folder + "/loud.wav", amplitude: 0.5, seconds: 1.5)
        try TestRig.makeTone(at: folder + "/quiet.wav", amplitude: 0.05, seconds: 1.5)
        let steps = folder + "/steps.wav"
        let joined = try TestRig.run("sox", [folder + "/loud.wav", folder + "/quiet.wav", steps])
        guard joined.status == 0 else { throw RigError("sox failed: \(joined.error)") }
        return steps
    }

    /// Checks waybar lines as the issue states them: each valid JSON with the four keys, the
    /// percentage following the tone, and `silent` within 1 s of silence.
    func checkWaybar(_ lines: [RunningCommand.Line], silenceAt: Double?) throws {
        #expect(lines.count >= 5)
        var percentages: [Int] = []
        var firstSilent: Double?
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any], "\(line.text)")
            #expect(Set(object.keys) == ["text", "percentage", "class", "tooltip"], "\(line.text)")
            let text = try #require(object["text"] as? String)
            #expect(text.count == 8 && text.unicodeScalars.allSatisfy { (0x2581 ... 0x2588).contains($0.value) }, "\(text)")
            let percentage = try #require(object["percentage"] as? Int)
            percentages.append(percentage)
            let kind = try #require(object["class"] as? String)
            #expect(["silent", "playing", "clip"].contains(kind))
            if kind == "silent" && firstSilent == nil { firstSilent = line.receivedAt }
            if percentage == 85 { #expect((object["tooltip"] as? String) == "L -9.0 dBFS  R -9.0 dBFS", "\(line.text)") }
        }
        #expect(percentages.contains(85), "\(percentages)")
        #expect(percentages.contains(52), "\(percentages)")
        // Loud, then quiet, then nothing: in that order.
        let loud = percentages.firstIndex(of: 85) ?? 0
        let quiet = percentages.lastIndex(of: 52) ?? 0
        #expect(loud < quiet)
        if let silenceAt {
            let silent = try #require(firstSilent, "never silent: \(percentages)")
            #expect(silent - silenceAt < 1.0, "silent \(silent - silenceAt) s after the silence")
        }
    }

    @Test("waybar: valid JSON with the four keys, the percentage follows the tone, silent within 1 s of silence")
    func waybarStandalone() throws {
        let server = try PrivatePulseServer()
        let steps = try makeSteps(in: server.directory)
        let feed = try RunningCommand(["levels", "--standalone", "--format", "waybar", "--rate", "20", "--duration", "5"],
                                      environment: server.environment)
        // Once the feed listens (its first line), the steps start; they end 3 s later.
        #expect(TestRig.wait(timeout: 5) { !feed.output.isEmpty }, "\(feed.standardError)")
        let player = try server.play(steps)
        defer { player.kill() }
        player.waitForExit()
        let silenceAt = TestRig.now()
        #expect(feed.waitForExit(timeout: 10) == 0, "\(feed.standardError)")
        try checkWaybar(feed.output, silenceAt: silenceAt)
    }

    @Test("waybar through a running daemon gives the same lines")
    func waybarThroughDaemon() async throws {
        try await DaemonTests().onOwnThread {
            let rig = try DaemonRig()
            let steps = try makeSteps(in: rig.server.directory)
            let feed = try RunningCommand(["levels", "--format", "waybar", "--rate", "20", "--duration", "5"], environment: rig.environment)
            #expect(TestRig.wait(timeout: 5) { (try? rig.status()["subscribers"]) == .number(2) }, "\(feed.standardError)")
            usleep(300_000)
            let player = try rig.server.play(steps)
            defer { player.kill() }
            player.waitForExit()
            let silenceAt = TestRig.now()
            #expect(feed.waitForExit(timeout: 10) == 0, "\(feed.standardError)")
            #expect(!feed.standardError.contains("listening to"), "the feed opened no tap of its own")
            try checkWaybar(feed.output, silenceAt: silenceAt)
        }
    }

    @Test("ascii has cava's shape: the same bar lit for a 440 Hz tone with 8 bars, values 0...100, ';' after each")
    func asciiLikeCava() throws {
        let server = try PrivatePulseServer()
        let tone = server.directory + "/a440.wav"
        // Far longer than the 5 s read: on a busy machine `levels` may start seconds after the
        // player, and the click of a tone ending lights the low bars.
        try TestRig.makeTone(at: tone, amplitude: 0.5, frequency: 440, seconds: 30)
        let player = try server.play(tone)
        defer { player.kill() }
        let config = server.directory + "/cava.conf"
        try """
            [general]
            bars = 8
            framerate = 20
            [input]
            method = pulse
            source = viz.monitor
            [output]
            method = raw
            raw_target = /dev/stdout
            data_format = ascii
            ascii_max_range = 100
            channels = mono
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let cava = try RunningCommand(["-p", config], environment: server.environment, tool: "cava")
        defer { cava.stop() }
        let launchedAt = TestRig.now()
        let ours = try RunningCommand(["levels", "--standalone", "--format", "ascii", "--bars", "8", "--ascii-max", "100",
                                       "--rate", "20", "--duration", "5"], environment: server.environment)
        #expect(ours.waitForExit(timeout: 10) == 0, "\(ours.standardError)")
        cava.stop()
        func frames(_ lines: [RunningCommand.Line]) -> [[Int]] {
            lines.map { $0.text }.filter { $0.hasSuffix(";") }.map { $0.dropLast().split(separator: ";").compactMap { Int($0) } }
        }
        // Frames where the tone is heard, in both: a player that runs dry for a moment on a busy
        // machine gives each a low frame with the low bars lit by the gap's clicks.
        let heard = { (frame: [Int]) in frame.count == 8 && frame.max()! > 50 }
        let theirs = frames(cava.output).filter(heard).suffix(10)
        // cava prints every frame; decibar only a line that changed, so a steady tone gives it about
        // a dozen in 5 s (its rise, the autosens settling, then nothing), and how many of them are the
        // rise depends on when it started listening. All of its frames with the tone from the first
        // at 75 on are judged: nine in each of 20 runs started with the tone, at least five asked.
        let mine = frames(ours.output).drop { $0.count != 8 || $0.max()! < 75 }.filter(heard)
        // Both printed: a gap both heard was the player's.
        let gaps = frames(ours.output).filter { $0.count == 8 && !heard($0) }
        let theirGaps = frames(cava.output).filter { $0.count == 8 && !heard($0) }
        // A late first frame is a slow start; frames missing later, a stall.
        let firstFrame = ours.output.first.map { String(format: "%.2f s", $0.receivedAt - launchedAt) } ?? "never"
        let summary = "decibar gave \(ours.output.count) lines in its 5 s (the first \(firstFrame) after its launch), cava \(cava.output.count)"
        print("ascii like cava: \(summary); frames without the tone: decibar \(gaps.count) \(gaps.suffix(3)), cava \(theirGaps.count) \(theirGaps.suffix(3))")
        #expect(theirs.count == 10 && mine.count >= 5, "\(summary); cava \(cava.output.suffix(3).map(\.text)), decibar \(ours.output.map(\.text))")
        #expect(ours.output.allSatisfy { $0.text.hasSuffix(";") && $0.text.split(separator: ";").allSatisfy { (0 ... 100).contains(Int($0) ?? -1) } })
        let repeated = zip(ours.output, ours.output.dropFirst()).filter { $0.text == $1.text }.map(\.1.text)
        #expect(repeated.isEmpty, "decibar repeated a line: \(repeated)")
        guard let lastOfTheirs = theirs.last else { return }
        let lit = lastOfTheirs.firstIndex(of: lastOfTheirs.max()!)!
        for frame in theirs {
            #expect(frame.firstIndex(of: frame.max()!) == lit, "cava \(frame), its last \(lastOfTheirs)")
        }
        for frame in mine {
            #expect(frame.firstIndex(of: frame.max()!) == lit, "cava \(lastOfTheirs), decibar \(frame)")
            #expect(frame.max()! >= 75, "\(frame)")
            // Every other bar is under half the lit one in both (the low bands' long averaging
            // still holds some of the tone's onset in ours).
            for index in frame.indices where index != lit {
                #expect(frame[index] * 2 < frame[lit], "cava \(lastOfTheirs), decibar \(frame)")
            }
        }
        for frame in theirs {
            for index in frame.indices where index != lit {
                #expect(frame[index] * 2 < frame[lit], "cava \(frame)")
            }
        }
    }
}
