import DecibarTestSupport
import DecibarApp
import DecibarCore
import Foundation
import Synchronization
import Testing

/// Beats on a real sound server, and against aubio's beat tracker on the same files.
@Suite("Beats: live on a monitor, and beside aubio", .serialized)
struct BeatTests {
    static var scripts: String { (BeatMaterial.script as NSString).deletingLastPathComponent }

    /// How late (s) each click arriving on the monitor after `start` was told by a beat line
    /// received within 100 ms of it; and how many clicks there were.
    static func lateness(of beats: [RunningCommand.Line], clicks arrivals: [Double], from start: Double) -> (lateness: [Double], clicks: Int) {
        let counted = arrivals.filter { $0 >= start }
        let late = counted.compactMap { Self.lateness(of: beats, click: $0) }
        return (late.sorted(), counted.count)
    }

    /// How late (s) the beat line nearest the click arrived after it, if within 100 ms.
    static func lateness(of beats: [RunningCommand.Line], click arrival: Double) -> Double? {
        let told = beats.filter { !BeatMaterial.beatTimes(inLines: [$0.text]).isEmpty }.map(\.receivedAt)
        return told.min { abs($0 - arrival) < abs($1 - arrival) }.map { $0 - arrival }.flatMap { abs($0) <= 0.1 ? $0 : nil }
    }

    /// A beats subscription of the test's own, read on a thread of its own: beside the `levels`
    /// client, it tells a beat the daemon sent late (late on both) from one a reader took late.
    final class BeatListener {
        /// Shared with the reading thread.
        private final class Shared: Sendable {
            let lines = Mutex<[RunningCommand.Line]>([])
            let stopped = Atomic(false)
        }

        private let shared = Shared()
        private let thread: Thread

        init(socket: String) throws {
            let client = try ControlConnectionClient(path: socket, timeout: 10)
            #expect(try client.request(["subscribe", "beats"]).succeeded)
            let shared = self.shared
            // The client is used by this thread alone from here on.
            nonisolated(unsafe) let reader = client
            thread = Thread {
                while !shared.stopped.load(ordering: .relaxed) {
                    // Nil at the deadline (to look at `stopped`); a closed connection ends the reading.
                    let line: [UInt8]
                    do {
                        guard let next = try reader.nextLine(until: TestRig.now() + 0.2) else { continue }
                        line = next
                    } catch {
                        return
                    }
                    let arrived = TestRig.now()
                    guard let data = ControlMessage.lineData(of: line, event: "beats") else { continue }
                    let text = String(decoding: data.dropLast(), as: UTF8.self)
                    shared.lines.withLock { $0.append(RunningCommand.Line(receivedAt: arrived, text: text)) }
                }
            }
            thread.name = "beat-listener"
            thread.start()
        }

        var output: [RunningCommand.Line] { shared.lines.withLock { $0 } }

        func stop() {
            shared.stopped.store(true, ordering: .relaxed)
            while !thread.isFinished { usleep(5_000) }
        }
    }

    static func describe(_ sorted: [Double]) -> String {
        guard !sorted.isEmpty else { return "none" }
        let at = { (fraction: Double) in String(format: "%.1f", sorted[Int(fraction * Double(sorted.count - 1))] * 1000) }
        return "min \(at(0)), quartiles \(at(0.25)) \(at(0.5)) \(at(0.75)), max \(at(1)) ms"
    }

    @Test("120 BPM clicks played by the daemon: its subscribe beats client hears each within 10 ms of the click reaching the monitor (found ahead); levels --standalone --mode beats on the monitor tells them 500 +-5 ms apart, within 30 ms (median)")
    func liveAndAhead() throws {
        let rig = try DaemonRig()
        let material = try BeatMaterial(["clicks", "120", "--seconds", "11"], name: "clicks.wav", in: rig.server.directory)
        let clicks = try RunningCommand(["viz.monitor"], environment: rig.environment, tool: Self.scripts + "/click-times.py")
        defer { clicks.stop() }
        let subscribed = try RunningCommand(["levels", "--mode", "beats"], environment: rig.environment)
        defer { subscribed.stop() }
        let live = try RunningCommand(["levels", "--standalone", "--mode", "beats"], environment: rig.environment)
        defer { live.stop() }
        let listener = try BeatListener(socket: rig.socket)
        defer { listener.stop() }
        for command in [subscribed, live] {
            #expect(command.firstLine(timeout: 10) { $0.text.contains("\"bpm\"") } != nil, "\(command.standardError)")
        }
        #expect(try rig.ctl("open", material.path).status == 0)
        #expect(TestRig.wait(timeout: 25) { (try? rig.player("state")) == .string("stopped") || (try? rig.player("state")) == .string("idle") })
        usleep(300_000)
        let arrivals = clicks.output.compactMap { Double($0.text) }
        #expect(arrivals.count >= 21, "\(arrivals.count) clicks heard")
        // From the fifth second of clicks on: the tempo is known by then.
        let start = (arrivals.first ?? 0) + 5

        // The player's beats, found before they are heard and sent when they are.
        let (ahead, counted) = Self.lateness(of: subscribed.output, clicks: arrivals, from: start)
        let (heard, _) = Self.lateness(of: listener.output, clicks: arrivals, from: start)
        print("player beats told after the click arrived: \(Self.describe(ahead)); \(ahead.count) of \(counted) clicks;"
              + " to the test's own subscription: \(Self.describe(heard)), \(heard.count)")
        #expect(ahead.count == counted, "\(ahead.count) beats for \(counted) clicks")
        #expect(heard.count == counted, "\(heard.count) beats for \(counted) clicks to the test's own subscription")
        // A sanitizer's overhead delays the announcer's timers themselves: there the check is looser.
        let tolerance = ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] == nil ? 0.010 : 0.030
        // Click by click, as the `levels` client and the test's own subscription had each beat:
        // late on both, the daemon sent it late; on one, that reader took it late.
        let byClick = arrivals.filter { $0 >= start }.map { arrival in
            [Self.lateness(of: subscribed.output, click: arrival), Self.lateness(of: listener.output, click: arrival)]
                .map { $0.map { String(format: "%.1f", $0 * 1000) } ?? "-" }.joined(separator: "/")
        }.joined(separator: " ")
        #expect(ahead.allSatisfy { abs($0) <= tolerance } && heard.allSatisfy { abs($0) <= tolerance },
                "\(Self.describe(ahead)) (tolerance \(tolerance * 1000) ms); client/own ms per click: \(byClick)")
        let status = try rig.ctl("status")
        #expect(status.output.contains("120.0 BPM"), "\(status.output)")

        // The monitor's beats, found as soon as the audio allows.
        let beats = live.output.compactMap { line -> (told: Double, time: Double)? in
            guard let time = BeatMaterial.beatTimes(inLines: [line.text]).first else { return nil }
            return (line.receivedAt, time)
        }.filter { $0.told >= start }
        let intervals = zip(beats, beats.dropFirst()).map { $1.time - $0.time }.sorted()
        let medianInterval = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
        #expect(abs(medianInterval - 0.5) <= 0.005, "median interval \(medianInterval) s of \(intervals)")
        let (lateness, _) = Self.lateness(of: live.output, clicks: arrivals, from: start)
        print("live beats told after the click arrived: \(Self.describe(lateness)); \(lateness.count) of \(counted) clicks")
        #expect(lateness.count >= counted - 1, "\(lateness.count) beats for \(counted) clicks")
        let median = lateness.isEmpty ? .infinity : lateness[lateness.count / 2]
        #expect(median <= 0.030, "\(Self.describe(lateness))")
    }

    @Test("render: each frame's u_beat and u_beat_phase are those of the last beat at the frame's time (128 BPM clicks at 30 fps)")
    func renderedFrames() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let material = try BeatMaterial(["clicks", "128", "--seconds", "6.6"], name: "clicks.wav", in: folder)
        try FileManager.default.createDirectory(atPath: folder + "/shaders", withIntermediateDirectories: true)
        // The beat as colors: red u_beat, green u_beat_phase, blue the tempo / 255.
        try """
        #version 330 core
        in vec2 uv;
        uniform float u_beat;
        uniform float u_beat_phase;
        uniform float u_bpm;
        out vec4 color;
        void main() { color = vec4(u_beat, u_beat_phase, u_bpm / 255.0, 1.0); }
        """.write(toFile: folder + "/shaders/beat.frag", atomically: true, encoding: .utf8)
        let frames = folder + "/frames/"
        let rendered = try TestRig.run(TestRig.decibar, ["render", material.path, "-o", frames, "--size", "320x180", "--fps", "30",
                                                          "--shader-dir", folder + "/shaders"], environment: ["DISPLAY": ""])
        #expect(rendered.status == 0, "\(rendered.error)")
        var checked = 0
        for index in stride(from: 150, to: 195, by: 1) {
            let time = Double(index) / 30
            let beat = try #require(material.beats.last { $0 <= time })
            // A beat within 2 ms of the frame may fall either side of it.
            guard time - beat > 0.002 else { continue }
            let frame = try RenderTests.Frame(png: frames + String(format: "frame-%06d.png", index + 1))
            let (red, green, blue) = frame.pixel(x: 160, y: 20)
            let level = exp2(-(time - beat) / 0.08)
            let phase = min(1, (time - beat) * 128 / 60)
            #expect(abs(Double(red) - level * 255) <= 4, "frame \(index) at \(time) s: u_beat \(red), expected \(level * 255)")
            #expect(abs(Double(green) - phase * 255) <= 4, "frame \(index): u_beat_phase \(green), expected \(phase * 255)")
            #expect(blue == 128, "frame \(index): u_bpm \(blue)")
            checked += 1
        }
        #expect(checked >= 40)
    }

    @Test("the same files through aubiotrack: Decibar's F-measure is at least aubio's on every one")
    func againstAubio() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files: [(name: String, arguments: [String], from: Double)] = [
            ("clicks 60", ["clicks", "60"], 5), ("clicks 90", ["clicks", "90"], 5), ("clicks 120", ["clicks", "120"], 5),
            ("clicks 128", ["clicks", "128"], 5), ("clicks 174", ["clicks", "174"], 5), ("band 97", ["band", "97"], 5),
            ("band 97 held", ["band", "97", "--bass", "held"], 5), ("120 to 140", ["clicks", "120", "--to", "140", "--at", "15"], 20),
        ]
        var table = ["file          Decibar F  aubio F"]
        for (index, file) in files.enumerated() {
            let material = try BeatMaterial(file.arguments, name: "beats\(index).wav", in: folder)
            let ours = try TestRig.run(TestRig.decibar, ["levels", "--mode", "beats", "--file", material.path])
            #expect(ours.status == 0, "\(ours.error)")
            let theirs = try TestRig.run("aubiotrack", ["-i", material.path])
            #expect(theirs.status == 0, "\(theirs.error)")
            let lines = String(decoding: ours.output, as: UTF8.self).split(separator: "\n").map(String.init)
            let decibar = material.score(BeatMaterial.beatTimes(inLines: lines), from: file.from)
            let aubio = material.score(BeatMaterial.times(in: String(decoding: theirs.output, as: UTF8.self)), from: file.from)
            table.append(file.name.padding(toLength: 14, withPad: " ", startingAt: 0)
                         + String(format: "%9.3f  %7.3f", decibar.f, aubio.f))
            #expect(decibar.f >= aubio.f, "\(file.name): Decibar \(decibar), aubio \(aubio)")
        }
        print(table.joined(separator: "\n"))
    }
}
