import DecibarAudio
import DecibarCore
import Foundation
import Testing

/// The daemon's A-B loop: `ctl ab-loop`, and in the window the a/b/A keys and a shift-drag (real
/// X events, xdotool); what the null sink's monitor recorded across the seam against the file's own
/// samples.
@Suite("A-B loop in the daemon's player", .serialized)
struct ABLoopTests {
    /// 20 s of two sweeping sines: no stretch of it repeats, so the seam shows in the samples.
    static func makeSweep(in folder: String) throws -> (path: String, samples: [Float]) {
        let file = folder + "/sweep.flac"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                              "aevalsrc=0.5*sin(2*PI*(200+30*t)*t)+0.01|0.4*sin(2*PI*(500+10*t)*t)+0.01:s=48000:d=20",
                                              file])
        guard made.status == 0 else { throw RigError("ffmpeg: \(made.error)") }
        return (file, try ScrubberDragTests.samples(of: file))
    }

    static func loop(_ rig: DaemonRig) throws -> (start: Double?, end: Double?)? {
        switch try rig.player("ab_loop") {
        case .object(let loop)?: return (loop["start"]?.number, loop["end"]?.number)
        case .null?: return nil
        case let other: throw RigError("player.ab_loop is \(String(describing: other))")
        }
    }

    @Test("ctl ab-loop 10 12: every position for 5 s within [10, 12], wrapping; the monitor repeats the file's samples across the seam exactly; off plays on past B")
    func loopFromControl() throws {
        let rig = try DaemonRig()
        let sweep = try Self.makeSweep(in: rig.server.directory)
        #expect(try rig.ctl("open", sweep.path).status == 0)
        #expect(TestRig.wait(timeout: 20) { ((try? rig.player("duration"))?.number ?? 0) >= 19.9 })
        #expect(try Self.loop(rig) == nil)
        let recording = rig.server.directory + "/loop.raw"
        let recorder = try rig.server.record(to: recording)
        defer { recorder.kill() }
        #expect(try rig.ctl("ab-loop", "10", "12").status == 0)
        #expect(try Self.loop(rig).map { $0.start == 10 && $0.end == 12 } == true)
        let client = try rig.connect()
        var positions: [Double] = []
        let end = TestRig.now() + 5
        while TestRig.now() < end {
            guard case .object(let status)? = try client.request(["get_status"]).data, case .object(let player)? = status["player"],
                  let position = player["position"]?.number else { throw RigError("no position in the status") }
            positions.append(position)
            usleep(20_000)
        }
        recorder.kill()
        let outside = positions.filter { $0 < 10 || $0 > 12 }
        #expect(outside.isEmpty, "\(outside.count) of \(positions.count) positions outside [10, 12]: \(outside.prefix(10))")
        let wraps = zip(positions, positions.dropFirst()).filter { $1 < $0 - 1 }.count
        #expect(wraps >= 2, "the position went back to A \(wraps) times in 5 s")

        // From the first audio of A on, two whole passes are the file's samples from A to B, twice.
        let recorded = try Data(contentsOf: URL(fileURLWithPath: recording)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let a = 10 * 48000 * 2, b = 12 * 48000 * 2
        let landing = try #require(ScrubberDragTests.offset(of: sweep.samples[a ..< a + 960], in: recorded), "no audio from A in the recording")
        let pass = Array(sweep.samples[a ..< b])
        #expect(landing + 2 * pass.count <= recorded.count, "recorded \(recorded.count / 96000) s")
        if landing + 2 * pass.count <= recorded.count {
            for round in 0 ..< 2 {
                let start = landing + round * pass.count
                let wrong = zip(recorded[start ..< start + pass.count], pass).enumerated().first { abs($0.element.0 - $0.element.1) >= 1e-6 }
                #expect(wrong == nil, "pass \(round + 1) differs from the file at \(Double((wrong?.offset ?? 0) / 2) / 48000) s after A")
            }
        }

        #expect(try rig.ctl("ab-loop", "off").status == 0)
        #expect(try Self.loop(rig) == nil)
        #expect(TestRig.wait(timeout: 5) { ((try? rig.player("position"))?.number ?? 0) > 12.3 })
        // Nonsense is refused in one line.
        let backwards = try rig.ctl("ab-loop", "12", "10")
        #expect(backwards.status != 0 && backwards.error.contains("ab_loop"), "\(backwards)")
        let beyond = try rig.ctl("ab-loop", "30", "40")
        #expect(beyond.status != 0 && beyond.error.contains("within the track"), "\(beyond)")
    }

    @Test("in the window: a and b set the loop's ends at the playhead, shift+a clears it, a shift-drag marks it")
    func loopFromWindow() throws {
        let screen = try PrivateDisplay()
        let (width, height) = (800, 450)
        let rig = try DaemonRig(arguments: ["--size", "\(width)x\(height)"], environment: ["DISPLAY": screen.display])
        let sweep = try Self.makeSweep(in: rig.server.directory)
        #expect(try rig.ctl("show").status == 0)
        #expect(try rig.ctl("open", sweep.path).status == 0)
        #expect(TestRig.wait(timeout: 20) { ((try? rig.player("duration"))?.number ?? 0) >= 19.9 })
        #expect(try rig.ctl("pause").status == 0)
        let id = try screen.window(of: try #require(rig.daemon).process.processIdentifier)
        func key(_ name: String) throws { _ = try screen.xdotool(["windowfocus", "--sync", id, "key", name]) }

        #expect(try rig.ctl("seek", "3").status == 0)
        try key("a")
        #expect(TestRig.wait(timeout: 5) { (try? Self.loop(rig)).map { $0?.start == 3 && $0?.end == nil } == true })
        #expect(try rig.ctl("seek", "5").status == 0)
        try key("b")
        #expect(TestRig.wait(timeout: 5) { (try? Self.loop(rig)).map { $0?.start == 3 && $0?.end == 5 } == true })
        // B set: the playhead goes to A.
        #expect(abs(((try rig.player("position"))?.number ?? 0) - 3) < 0.05)
        try key("shift+a")
        #expect(TestRig.wait(timeout: 5) { (try? rig.player("ab_loop")) == .null })

        // Shift held from 25 % to 50 % of the scrubber: a loop from 5 to 10 s (a column's time either way).
        let layout = PlayLayout(width: width, height: height)
        let geometry = layout.scrubberGeometry(duration: 20)
        let y = layout.scrubberTop + layout.scrubberHeight / 2
        let from = Int(geometry.x(forTime: 5).rounded()), to = Int(geometry.x(forTime: 10).rounded())
        // In one go: the window may well see the shift's release before it handles the press.
        _ = try screen.xdotool(["mousemove", "--window", id, "\(from)", "\(y)", "keydown", "shift", "mousedown", "1",
                                "mousemove", "--window", id, "\((from + to) / 2)", "\(y)",
                                "mousemove", "--window", id, "\(to)", "\(y)", "mouseup", "1", "keyup", "shift"])
        let pixel = 20 / Double(layout.scrubberWidth)
        #expect(TestRig.wait(timeout: 5) {
            guard let loop = try? Self.loop(rig), let start = loop.start, let end = loop.end else { return false }
            return abs(start - 5) <= pixel && abs(end - 10) <= pixel
        }, "\(String(describing: try? Self.loop(rig)))")
        #expect(abs(((try rig.player("position"))?.number ?? 0) - 5) < 0.1)
        #expect(try rig.player("state")?.string == "paused")
    }
}
