import DecibarCore
import DecibarTestSupport
import Foundation
import Testing

/// `--send` on a real sound server, read by real receivers: WLED and DDP datagrams on UDP sockets,
/// OSC by liblo's `oscdump`.
@Suite("Outputs: WLED, DDP and OSC from levels --send", .serialized)
struct OutputsTests {
    /// A UDP port nothing listens on now (taken from the kernel, then freed).
    static func freePort() throws -> Int {
        let probe = try DatagramReceiver()
        probe.stop()
        return probe.port
    }

    /// A TCP port no socket holds now, for a page. Not a UDP probe's: UDP and TCP ports are apart, and
    /// a browser's closed connection holds its local port in TIME_WAIT for a minute, where the page's
    /// server cannot listen. The kernel's own choice of a port to bind skips those.
    static func freePagePort() throws -> Int {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { throw RigError("a TCP socket: errno \(errno)") }
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0 }
        }
        guard bound else { throw RigError("a TCP port on 127.0.0.1: errno \(errno)") }
        // Bound, never connected: closing it leaves nothing in TIME_WAIT.
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `/decibar/levels` lines of oscdump: their arrival and four floats.
    static func oscLevels(_ lines: [RunningCommand.Line]) -> [(time: Double, values: [Double])] {
        lines.compactMap { line in
            let parts = line.text.split(separator: " ")
            guard parts.count == 7, parts[1] == "/decibar/levels", parts[2] == "ffff" else { return nil }
            return (line.receivedAt, parts[3...].compactMap { Double($0) })
        }
    }

    @Test("a -6 dBFS 1 kHz tone: WLED at 50 a second with channel 7 the largest and its peak at 1000 Hz ± 5 %; DDP lit; oscdump reads the RMS within 0.1 dB; silence zeros and darkens them")
    func toneAndSilence() throws {
        let server = try PrivatePulseServer()
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, frequency: 1000, seconds: 3)
        let wled = try DatagramReceiver(), ddp = try DatagramReceiver()
        defer { wled.stop(); ddp.stop() }
        let oscPort = try Self.freePort()
        let osc = try RunningCommand(["-L", "\(oscPort)"], environment: [:], tool: "oscdump")
        defer { osc.stop() }
        let levels = try RunningCommand(["levels", "--send", "wled://127.0.0.1:\(wled.port)", "--send", "ddp://127.0.0.1:\(ddp.port)?pixels=30",
                                         "--send", "osc://127.0.0.1:\(oscPort)"], environment: server.environment)
        defer { levels.stop() }
        #expect(levels.firstLine(timeout: 10) { $0.text.contains("rms_db") } != nil, "\(levels.standardError)")
        let started = DatagramReceiver.now()
        let player = try server.play(tone)
        player.waitUntilExit()
        let ended = DatagramReceiver.now()
        Thread.sleep(forTimeInterval: 2)
        levels.stop()

        let packets = wled.received
        #expect(packets.allSatisfy { $0.bytes.count == 44 && $0.bytes.starts(with: Array("00002".utf8) + [0]) })
        let rate = Double(packets.count - 1) / ((packets.last?.time ?? 0) - (packets.first?.time ?? 0))
        #expect(abs(rate - 50) < 3, "\(rate) packets a second")
        let during = packets.filter { $0.time > started + 0.7 && $0.time < ended - 0.3 }
        #expect(during.count > 50)
        for packet in during {
            let peak = DatagramReceiver.littleEndianFloat(packet.bytes, at: 40)
            let channels = Array(packet.bytes[18 ..< 34])
            #expect(abs(peak / 1000 - 1) <= 0.05 && channels.max() == channels[7] && channels[7] > 200, "peak \(peak) Hz, channels \(channels)")
        }
        let silent = packets.filter { $0.time > ended + 1.3 }
        // Everything but the packet counter (byte 17).
        #expect(!silent.isEmpty && silent.allSatisfy { Array($0.bytes[8 ..< 17] + $0.bytes[18 ..< 44]) == [UInt8](repeating: 0, count: 35) },
                "\(silent.first.map { Array($0.bytes[8 ..< 44]) } ?? [])")

        let frames = ddp.received
        #expect(frames.allSatisfy { $0.bytes.count == 100 && $0.bytes[0] == 0x41 })
        #expect(frames.filter { $0.time > started + 0.7 && $0.time < ended - 0.3 }.allSatisfy { $0.bytes[10...].contains { $0 > 40 } })
        let dark = frames.filter { $0.time > ended + 1.5 }
        #expect(!dark.isEmpty && dark.allSatisfy { $0.bytes[10...].allSatisfy { $0 == 0 } })

        let readings = Self.oscLevels(osc.output).filter { $0.time > started + 0.7 && $0.time < ended - 0.3 }
        #expect(readings.count > 50, "\(osc.output.prefix(3).map(\.text)) \(osc.standardError)")
        for reading in readings {
            #expect(abs(reading.values[0] + 9.03) <= 0.1 && abs(reading.values[1] + 9.03) <= 0.1, "\(reading.values)")
        }
        print("outputs: \(packets.count) WLED packets (\(String(format: "%.1f", rate)) a second), \(frames.count) DDP frames, \(Self.oscLevels(osc.output).count) OSC level messages")
    }

    @Test("120 BPM clicks set WLED's samplePeak from the first click: at least 12 of the first 13 marked, each within 50 ms of reaching the monitor; then one packet a beat: two a second")
    func beatsPeak() throws {
        let server = try PrivatePulseServer()
        let material = try BeatMaterial(["clicks", "120", "--seconds", "12"], name: "clicks.wav", in: server.directory)
        let wled = try DatagramReceiver()
        defer { wled.stop() }
        let clicks = try RunningCommand(["viz.monitor"], environment: server.environment, tool: BeatTests.scripts + "/click-times.py")
        defer { clicks.stop() }
        let levels = try RunningCommand(["levels", "--send", "wled://127.0.0.1:\(wled.port)"], environment: server.environment)
        defer { levels.stop() }
        #expect(levels.firstLine(timeout: 10) { $0.text.contains("rms_db") } != nil, "\(levels.standardError)")
        let started = DatagramReceiver.now()
        let player = try server.play(material.path)
        player.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.3)
        levels.stop()
        // The lights react from the first click (a burst each), before the beat is followed.
        let arrivals = Array(clicks.output.compactMap { Double($0.text) }.prefix(13))
        let marks = wled.received.filter { $0.bytes[16] == 1 }.map(\.time)
        let marked = arrivals.filter { click in marks.contains { $0 >= click - 0.005 && $0 <= click + 0.05 } }
        print("outputs: \(marked.count) of the first \(arrivals.count) clicks marked; after each click: "
              + arrivals.map { click in marks.first { $0 >= click - 0.005 }.map { String(format: "%.1f", ($0 - click) * 1000) } ?? "-" }
              .joined(separator: ", ") + " ms")
        #expect(arrivals.count == 13, "\(arrivals.count) clicks heard")
        #expect(marked.count >= 12 && marked.first == arrivals.first, "\(marked.count) of \(arrivals.count) clicks marked")
        // From 5 s on (the tempo is known by then) to the end of the clicks.
        let peaks = wled.received.filter { $0.time > started + 5 && $0.time < started + 11.5 && $0.bytes[16] == 1 }
        print("outputs: \(peaks.count) beats in 6.5 s of 120 BPM clicks")
        #expect(abs(peaks.count - 13) <= 1, "\(peaks.count) packets with samplePeak in 6.5 s")
        let intervals = zip(peaks, peaks.dropFirst()).map { $1.time - $0.time }.sorted()
        #expect(abs((intervals.isEmpty ? 0 : intervals[intervals.count / 2]) - 0.5) <= 0.021, "\(intervals)")
    }

    /// A screenshot of `url` by headless Chromium after `seconds` of real time (Scripts/page-shot.py:
    /// Chromium's own --screenshot comes before a WebSocket's first frames on a busy machine).
    static func browserShot(of url: String, to path: String, width: Int, height: Int, after seconds: Double = 1.5, text: String? = nil) throws {
        let shot = try TestRig.run("python3", [TestRig.packageRoot + "/Scripts/page-shot.py", url, path, "\(width)", "\(height)", "\(seconds)"]
                                   + (text.map { [$0] } ?? []))
        guard shot.status == 0, FileManager.default.fileExists(atPath: path) else { throw RigError("no screenshot of the page: \(shot.error.suffix(400))") }
    }

    @Test("the page in headless Chromium draws the window's bars for a steady tone (each within 3 pixels), none in silence; its WebSocket brings at least 55 frames a second; a 17th client is refused")
    func webPage() throws {
        let screen = try PrivateDisplay()
        let server = try PrivatePulseServer()
        let environment = server.environment.merging(["DISPLAY": screen.display]) { $1 }
        let tone = server.directory + "/tone.wav"
        // The window's screenshot is taken as it closes, after the page's: the page (2 s of frames
        // read, then Chromium's start and 1.5 s) must be shot while the window still sends (at 5 s
        // it sometimes was not: the page said "reconnecting"), and the tone must still play then.
        try TestRig.makeTone(at: tone, amplitude: 0.25, frequency: 1000, seconds: 10)
        let port = try Self.freePagePort()
        let windowShot = server.directory + "/window.png", pageShot = server.directory + "/page.png", silentShot = server.directory + "/silent.png"
        let (width, height) = (960, 540)
        let live = try RunningCommand(["live", "--size", "\(width)x\(height)", "--send", "http://127.0.0.1:\(port)", "--exit-after", "8",
                                       "--screenshot", windowShot], environment: environment)
        defer { live.stop() }
        #expect(TestRig.wait(timeout: 10) { live.standardError.contains("the page is at http://127.0.0.1:\(port)/") }, "\(live.standardError)")
        let player = try server.play(tone)
        defer { player.terminate() }
        Thread.sleep(forTimeInterval: 1.5)

        // Frames over the WebSocket, as a page gets them.
        let frames = try TestRig.run("python3", [TestRig.packageRoot + "/Scripts/ws-frames.py", "127.0.0.1", "\(port)", "/ws", "2"])
        let arrivals = String(decoding: frames.output, as: UTF8.self).split(separator: "\n").compactMap { Double($0.split(separator: " ")[0]) }
        let rate = arrivals.count > 1 ? Double(arrivals.count - 1) / (arrivals[arrivals.count - 1] - arrivals[0]) : 0
        print("outputs: the page's WebSocket brought \(arrivals.count) frames, \(String(format: "%.1f", rate)) a second")
        #expect(rate >= 55, "\(rate) frames a second: \(frames.error)")

        try Self.browserShot(of: "http://127.0.0.1:\(port)/", to: pageShot, width: width, height: height)
        #expect(live.waitForExit(timeout: 10) == 0, "\(live.standardError)")
        let window = try RenderTests.Frame(png: windowShot, width: width, height: height)
        let page = try RenderTests.Frame(png: pageShot, width: width, height: height)
        let theme = BarTheme.default
        let rects = BarLayout().rects(for: Array(repeating: 1, count: 48), width: width, height: height)
        // The painted run through the middle row: the bar itself (the window's corner notice is apart).
        func barHeight(_ frame: RenderTests.Frame, x: Int) -> Int {
            var top = height / 2, bottom = height / 2
            while top > 0 && !frame.isBackground(x: x, y: top - 1, theme: theme) { top -= 1 }
            while bottom < height - 1 && !frame.isBackground(x: x, y: bottom + 1, theme: theme) { bottom += 1 }
            return frame.isBackground(x: x, y: height / 2, theme: theme) ? 0 : bottom - top + 1
        }
        var differences: [Int] = []
        for rect in rects {
            let x = rect.x + rect.width / 2
            differences.append(barHeight(page, x: x) - barHeight(window, x: x))
        }
        print("outputs: page minus window, bar heights (px): \(differences)")
        #expect(differences.allSatisfy { abs($0) <= 3 }, "\(differences)")
        let center = barHeight(window, x: rects[24].x + rects[24].width / 2)
        #expect(center > height / 4, "the window's center bar is \(center) px: no tone drawn")

        // The tone over: the page's bars fall to their resting lines.
        player.terminate()
        let quiet = try RunningCommand(["levels", "--send", "http://127.0.0.1:\(port)"], environment: environment)
        defer { quiet.stop() }
        #expect(TestRig.wait(timeout: 10) { quiet.standardError.contains("the page is at") }, "\(quiet.standardError)")
        Thread.sleep(forTimeInterval: 1)
        try Self.browserShot(of: "http://127.0.0.1:\(port)/", to: silentShot, width: width, height: height)
        let silent = try RenderTests.Frame(png: silentShot, width: width, height: height)
        let resting = rects.map { barHeight(silent, x: $0.x + $0.width / 2) }
        #expect(resting.allSatisfy { $0 <= 3 }, "\(resting)")

        // Sixteen readers that never read, then one more: refused.
        let stalled = try (0 ..< 16).map { _ in
            try RunningCommand([TestRig.packageRoot + "/Scripts/ws-frames.py", "127.0.0.1", "\(port)", "/ws", "6", "--read-not"], environment: [:], tool: "python3")
        }
        defer { stalled.forEach { $0.stop() } }
        Thread.sleep(forTimeInterval: 1.5)
        let refused = try TestRig.run("python3", [TestRig.packageRoot + "/Scripts/ws-frames.py", "127.0.0.1", "\(port)", "/ws", "1"])
        #expect(refused.status != 0 && refused.error.contains("refused"), "\(refused.error)")
        #expect(quiet.isRunning, "\(quiet.standardError)")
    }

    @Test("the page's 16 clients (15 reading, one that never reads), a 17th refused, and a flood of datagrams to a dead port while the daemon plays music in its window: every reader gets >= 55 frames a second, the stalled one loses frames, the player and the tap lose nothing, the window keeps its pacing")
    func underLoad() throws {
        let screen = try PrivateDisplay()
        let port = try Self.freePagePort(), dead = try Self.freePort()
        let frameLog = NSTemporaryDirectory() + "decibar-load-frames-\(getpid()).log"
        defer { try? FileManager.default.removeItem(atPath: frameLog) }
        let rig = try DaemonRig(arguments: ["--window", "shown", "--frame-log", frameLog,
                                            "--send", "http://127.0.0.1:\(port)", "--send", "wled://127.0.0.1:\(dead)",
                                            "--send", "ddp://127.0.0.1:\(dead)?pixels=4800", "--send", "osc://127.0.0.1:\(dead)"],
                                environment: ["DISPLAY": screen.display])
        let song = try MusicLibrary.path(of: MusicLibrary.songs[1])
        let script = TestRig.packageRoot + "/Scripts/ws-frames.py"
        let stalled = try RunningCommand([script, "127.0.0.1", "\(port)", "/ws", "12", "--read-not"], environment: [:], tool: "python3")
        defer { stalled.stop() }
        let readers = try RunningCommand([script, "127.0.0.1", "\(port)", "/ws", "9", "--clients", "15"], environment: [:], tool: "python3")
        defer { readers.stop() }
        #expect(try rig.ctl("open", song).status == 0)
        Thread.sleep(forTimeInterval: 1.5)
        let refused = try TestRig.run("python3", [script, "127.0.0.1", "\(port)", "/ws", "1"])
        #expect(refused.status != 0 && refused.error.contains("refused"), "\(refused.error)")
        // Long enough for the stalled client's socket buffers (a few hundred kB on loopback) to fill.
        // Looked at twice a second meanwhile: where in the track a dropout came, if one did.
        var firstDropoutNear: Double?
        let looking = TestRig.now()
        while TestRig.now() - looking < 6 {
            Thread.sleep(forTimeInterval: 0.5)
            if firstDropoutNear == nil, case .object(let player)? = try rig.status()["player"], (player["dropouts"]?.number ?? 0) > 0 {
                firstDropoutNear = player["position"]?.number
            }
        }
        let status = try rig.status()
        Thread.sleep(forTimeInterval: 2)
        #expect(try rig.ctl("stop").status == 0)
        _ = readers.waitForExit(timeout: 5)

        // Each reader's frames over 4 s from when the last connected.
        var times: [Int: [Double]] = [:]
        for line in readers.output {
            let parts = line.text.split(separator: " ")
            if parts.count == 3, let client = Int(parts[0]), let time = Double(parts[1]) { times[client, default: []].append(time) }
        }
        let start = times.values.compactMap(\.first).max() ?? 0
        let rates = (0 ..< 15).map { client in Double((times[client] ?? []).filter { $0 > start + 0.5 && $0 <= start + 4.5 }.count) / 4 }
        print("outputs under load: the 15 readers' frames a second: \(rates.map { String(format: "%.1f", $0) }.joined(separator: " "))")
        // A sanitizer's build makes each frame several times slower to build: it is checked for getting through.
        let goal = ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] == nil ? 55.0 : 20.0
        #expect(rates.allSatisfy { $0 >= goal }, "\(rates)")

        guard case .object(let player)? = status["player"], case .object(let tap)? = status["tap"],
              case .object(let outputs)? = status["outputs"], case .array(let sending)? = outputs["sending"] else {
            Issue.record("status without player, tap or outputs: \(status)")
            return
        }
        print("outputs under load: player \(player["dropouts"].map(String.init(describing:)) ?? "?") dropouts; tap \(tap); \(sending)")
        #expect(player["dropouts"] == .number(0) && player["underruns"] == .number(0),
                "\(player); the first dropout within 0.5 s before \(firstDropoutNear.map { "position \($0) s" } ?? "the end")")
        #expect(tap["dropped_buffers"] == .number(0) && (tap["buffers"].flatMap { if case .number(let n) = $0 { n } else { nil } } ?? 0) > 500, "\(tap)")
        let page = sending.compactMap { if case .string(let line) = $0, line.contains("the page at") { line } else { nil } }.first ?? ""
        // The stalled reader's socket fills and it loses frames; the others lose none.
        #expect(page.contains("16 client(s)") && !page.hasSuffix(" 0 dropped"), "\(page)")
        let ddp = sending.compactMap { if case .string(let line) = $0, line.hasPrefix("ddp://") { line } else { nil } }.first ?? ""
        let ddpSent = Int(ddp.split(separator: " ").dropLast(2).last ?? "") ?? 0
        #expect(ddpSent >= 10 * 55 * 5, "\(ddp)")
        #expect(!(rig.daemon?.standardError.contains("cannot send") ?? true), "\(rig.daemon?.standardError ?? "")")

        let pacing = try TestRig.run("python3", [TestRig.packageRoot + "/Scripts/frame-pacing.py", frameLog, "--from-sound"])
        let summary = String(decoding: pacing.output, as: UTF8.self)
        print("outputs under load: the window's pacing: \(summary)")
        let share = summary.split(separator: " ").firstIndex(of: "2").flatMap { index -> Double? in
            let words = summary.split(separator: " ")
            return index + 2 < words.count ? Double(words[index + 2]) : nil
        }
        // From the music's first frame (the window rests in silence before it, drawing nothing),
        // with the readers on the same two cores of a shared machine (88-95 % here; with two busy
        // loops beside, 83 % with the window's thread raised, 16 % without): a window that waited
        // on the outputs would miss far more. The goal (>= 99 %) is the one Scripts/bench-pacing.sh
        // measures alone and under the same load in one run.
        if goal == 55 {
            #expect((share ?? 0) >= 80, "\(summary) \(pacing.error)")
        } else {
            // A sanitizer's window is too slow for its pacing to be judged, only that it went on
            // drawing: a frame in at least half of the slots since the music began (how many
            // slots that is depends on when it began).
            let words = summary.split(separator: " ")
            let frames = words.count > 3 ? Int(words[0]) ?? 0 : 0, slots = words.count > 3 ? Int(words[3]) ?? 0 : 0
            #expect(frames >= 100 && frames * 2 >= slots, "\(summary) \(pacing.error)")
        }
    }

    /// `live --mode MODE` with its page on a free port and a steady -12 dBFS 1 kHz tone playing: the
    /// page shot in headless Chromium after `settle` seconds (its text too, to `text`), and the
    /// window's screenshot as it closes (to `windowShot`).
    func shootPage(mode: String, width: Int, height: Int, settle: Double, pageShot: String, text: String? = nil, windowShot: String? = nil,
                   server: PrivatePulseServer) throws {
        let screen = try PrivateDisplay()
        let environment = server.environment.merging(["DISPLAY": screen.display]) { $1 }
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.25, frequency: 1000, seconds: 8)
        let port = try Self.freePagePort()
        let live = try RunningCommand(["live", "--mode", mode, "--size", "\(width)x\(height)", "--send", "http://127.0.0.1:\(port)",
                                       "--exit-after", "6"] + (windowShot.map { ["--screenshot", $0] } ?? []), environment: environment)
        defer { live.stop() }
        #expect(TestRig.wait(timeout: 10) { live.standardError.contains("the page is at") }, "\(live.standardError)")
        let player = try server.play(tone)
        defer { player.terminate() }
        Thread.sleep(forTimeInterval: settle)
        try Self.browserShot(of: "http://127.0.0.1:\(port)/", to: pageShot, width: width, height: height, text: text)
        #expect(live.waitForExit(timeout: 10) == 0, "\(live.standardError)")
    }

    @Test("in meter mode the page draws the window's meter: each channel's RMS bar and the loudness bars reach the same heights (within 3 pixels) for a steady tone")
    func webPageMeter() throws {
        let server = try PrivatePulseServer()
        let windowShot = server.directory + "/window.png", pageShot = server.directory + "/page.png"
        let (width, height) = (960, 540)
        try shootPage(mode: "meter", width: width, height: height, settle: 2.5, pageShot: pageShot, windowShot: windowShot, server: server)
        let window = try RenderTests.Frame(png: windowShot, width: width, height: height)
        let page = try RenderTests.Frame(png: pageShot, width: width, height: height)
        let geometry = MeterLayout(width: width, height: height, channelCount: 2, loudnessBarCount: 2)
        // The top of the filled bar: the first row from the bottom up whose color is the slot's empty shade.
        func top(_ frame: RenderTests.Frame, _ slot: PixelRect) -> Int {
            let x = slot.x + slot.width / 2
            let empty = frame.pixel(x: x, y: geometry.scaleTop + 2)
            var y = geometry.scaleBottom - 2
            while y > geometry.scaleTop && frame.pixel(x: x, y: y) != empty { y -= 1 }
            return y
        }
        let slots = [geometry.barSlot(channel: 0), geometry.barSlot(channel: 1), geometry.loudnessSlot(0), geometry.loudnessSlot(1)]
        let windowTops = slots.map { top(window, $0) }, pageTops = slots.map { top(page, $0) }
        print("outputs: meter tops (L, R, M, S) in the window \(windowTops), on the page \(pageTops)")
        #expect(zip(windowTops, pageTops).allSatisfy { abs($0 - $1) <= 3 }, "window \(windowTops), page \(pageTops)")
        // A -12 dBFS tone: its RMS (-15 dBFS) is well up the scale, not at its floor.
        #expect(windowTops[0] < geometry.y(forDB: -25), "\(windowTops)")
    }

    @Test("in Milkdrop mode the page draws the bars and says, in one line under them, that Milkdrop shows only in the window")
    func webPageMilkdrop() throws {
        let server = try PrivatePulseServer()
        let pageShot = server.directory + "/page.png", pageText = server.directory + "/page.txt"
        let (width, height) = (640, 360)
        try shootPage(mode: "milkdrop", width: width, height: height, settle: 1.5, pageShot: pageShot, text: pageText, server: server)
        let said = try String(contentsOfFile: pageText, encoding: .utf8)
        #expect(said == "Milkdrop shows only in the window: the page draws the bars", "\(said)")
        // The tone's bars: the theme's colors across the middle row, not the empty page.
        let page = try RenderTests.Frame(png: pageShot, width: width, height: height)
        let lit = (0 ..< width).filter { page.pixel(x: $0, y: height / 2) != page.pixel(x: 0, y: 0) }.count
        #expect(lit > width / 4, "\(lit) of \(width) pixels of the middle row drawn")
    }

    @Test("wled:// with no host sends to WLED's multicast group 239.0.0.1:11988: a member of the group (in a network namespace of the test's own, where loopback carries multicast) gets the 44-byte packets, 50 a second")
    func multicast() throws {
        let server = try PrivatePulseServer()
        // The namespace has loopback only; multicast goes there by a route of its own. The receiver
        // joins the group and counts WLED V2 packets for 3 s while `levels --send wled://` runs.
        let receiver = """
        import socket, struct, sys, time
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("239.0.0.1", 11988))
        s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, struct.pack("4s4s", socket.inet_aton("239.0.0.1"), socket.inet_aton("127.0.0.1")))
        s.settimeout(0.2)
        print("joined", flush=True)
        times = []
        end = time.monotonic() + 5
        while time.monotonic() < end:
            try:
                data = s.recv(2048)
            except socket.timeout:
                continue
            if len(data) == 44 and data[:6] == b"00002\\0":
                times.append(time.monotonic())
        good = [t for t in times if times and t > times[0] + 0.5]
        print(len(times), (len(good) - 1) / (good[-1] - good[0]) if len(good) > 2 else 0)
        """
        let script = server.directory + "/group.py"
        try receiver.write(toFile: script, atomically: true, encoding: .utf8)
        let commands = [
            "ip link set lo up && ip link set lo multicast on && ip route add 239.0.0.0/8 dev lo || exit 3",
            "python3 \(script) > \(server.directory)/group.out & receiver=$!",
            "sleep 0.5",
            "'\(TestRig.decibar)' levels --send wled:// --duration 4 > /dev/null 2> \(server.directory)/levels.err",
            "wait $receiver",
        ].joined(separator: "\n")
        let run = try TestRig.run("unshare", ["-rn", "sh", "-c", commands], environment: server.environment)
        #expect(run.status == 0, "unshare or the namespace's setup failed (status \(run.status)): \(run.error)")
        let lines = ((try? String(contentsOfFile: server.directory + "/group.out", encoding: .utf8)) ?? "").split(separator: "\n")
        let figures = lines.last?.split(separator: " ").compactMap { Double($0) } ?? []
        print("outputs: the multicast group got \(figures.first ?? 0) packets, \(String(format: "%.1f", figures.last ?? 0)) a second")
        #expect(lines.first == "joined" && figures.count == 2 && figures[0] >= 100 && abs(figures[1] - 50) < 3,
                "\(lines) \((try? String(contentsOfFile: server.directory + "/levels.err", encoding: .utf8)) ?? "")")
    }

    /// How late each click's first packet left after the click reached the monitor: for each rise of
    /// `level` (a packet above `high` after one below `low`), the nearest click within 60 ms.
    static func lateness(_ packets: [(time: Double, level: Double)], clicks: [Double], high: Double, low: Double) -> [Double] {
        var late: [Double] = []
        // Before the first packet there was nothing (OSC sends levels only once there is audio).
        for (previous, packet) in zip([(time: -Double.infinity, level: low - 1)] + packets, packets) where packet.level > high && previous.level < low {
            if let click = clicks.min(by: { abs($0 - packet.time) < abs($1 - packet.time) }), abs(click - packet.time) < 0.06 {
                late.append(packet.time - click)
            }
        }
        return late.sorted()
    }

    @Test("clicks the daemon plays (found ahead): WLED's and OSC's packet for each leaves within 10 ms of the click reaching the monitor; offset=30 moves them 30 ms later; from a tap, as soon as the audio arrives")
    func onTime() throws {
        // 117 BPM: the clicks fall on every phase of the packets' grids (at 120 each would fall on the same one).
        func run(offset: Int, fromTap: Bool) throws -> (wled: [Double], osc: [Double], clicks: Int) {
            let wled = try DatagramReceiver(), osc = try DatagramReceiver()
            defer { wled.stop(); osc.stop() }
            let query = offset == 0 ? "" : "?offset=\(offset)"
            let sends = ["--send", "wled://127.0.0.1:\(wled.port)\(query)", "--send", "osc://127.0.0.1:\(osc.port)\(query)"]
            let rig = try DaemonRig(arguments: fromTap ? [] : sends)
            let material = try BeatMaterial(["clicks", "117", "--seconds", "6"], name: "clicks.wav", in: rig.server.directory)
            let clicks = try RunningCommand(["viz.monitor"], environment: rig.environment, tool: BeatTests.scripts + "/click-times.py")
            defer { clicks.stop() }
            var levels: RunningCommand?
            defer { levels?.stop() }
            if fromTap {
                levels = try RunningCommand(["levels"] + sends, environment: rig.environment)
                #expect(levels?.firstLine(timeout: 10) { $0.text.contains("rms_db") } != nil)
                try rig.server.play(material.path).waitUntilExit()
            } else {
                #expect(try rig.ctl("open", material.path).status == 0)
                #expect(TestRig.wait(timeout: 20) { (try? rig.player("state")) == .string("stopped") || (try? rig.player("state")) == .string("idle") })
            }
            Thread.sleep(forTimeInterval: 0.3)
            let arrivals = clicks.output.compactMap { Double($0.text) }
            #expect(arrivals.count >= 11, "\(arrivals.count) clicks heard")
            let wledLevels = wled.received.map { ($0.time, Double(DatagramReceiver.littleEndianFloat($0.bytes, at: 8))) }
            let oscPeaks = osc.received.compactMap { datagram -> (Double, Double)? in
                let bytes = datagram.bytes
                guard bytes.count == 40, bytes.starts(with: Array("/decibar/levels".utf8)) else { return nil }
                return (datagram.time, Double(Float(bitPattern: (0 ..< 4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[32 + $1]) })))
            }
            // Which click was late or early, in order (the lateness lists are sorted): the first of a track, or any?
            for (index, click) in arrivals.enumerated() {
                guard let packet = wledLevels.first(where: { $0.0 > click - 0.06 && $0.1 > 100 }), packet.0 - click > 0.006 || packet.0 - click < -0.002 else { continue }
                print("outputs: click \(index + 1) of \(arrivals.count): WLED's packet \(String(format: "%.1f", (packet.0 - click) * 1000)) ms after it")
                if packet.0 < click - 0.002 {
                    // A packet cannot leave before its click is heard: what was loud then?
                    let around = wledLevels.filter { abs($0.0 - click) <= 0.06 }
                    print("outputs: click \(index + 1)'s WLED levels around it (ms from the click: level): "
                          + around.map { String(format: "%+.1f: %.0f", ($0.0 - click) * 1000, $0.1) }.joined(separator: ", "))
                }
            }
            return (Self.lateness(wledLevels, clicks: arrivals, high: 100, low: 1), Self.lateness(oscPeaks, clicks: arrivals, high: -40, low: -100),
                    arrivals.count)
        }
        func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values[values.count / 2] }
        let ahead = try run(offset: 0, fromTap: false)
        print("outputs: the player's clicks, after reaching the monitor: WLED \(BeatTests.describe(ahead.wled)); OSC \(BeatTests.describe(ahead.osc))")
        // Every click, the track's first (at its first sample) included.
        #expect(ahead.wled.count == ahead.clicks && ahead.osc.count == ahead.clicks, "\(ahead)")
        // A sanitizer's overhead delays the sending thread now and then (as it does the beats' announcer).
        let tolerance = ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] == nil ? 0.010 : 0.030
        #expect(ahead.wled.allSatisfy { abs($0) <= tolerance }, "\(ahead.wled)")
        #expect(ahead.osc.allSatisfy { abs($0) <= tolerance }, "\(ahead.osc)")
        let delayed = try run(offset: 30, fromTap: false)
        print("outputs: with offset=30: WLED \(BeatTests.describe(delayed.wled)); OSC \(BeatTests.describe(delayed.osc))")
        #expect(abs(median(delayed.wled) - median(ahead.wled) - 0.03) <= 0.005)
        #expect(abs(median(delayed.osc) - median(ahead.osc) - 0.03) <= 0.005)
        // A tap learns of a click only once it has arrived (10 ms deliveries): reported, and never early.
        let tapped = try run(offset: 0, fromTap: true)
        print("outputs: a tap's clicks (levels --send): WLED \(BeatTests.describe(tapped.wled)); OSC \(BeatTests.describe(tapped.osc))")
        #expect(tapped.wled.count >= tapped.clicks - 1 && median(tapped.wled) <= 0.010 && median(tapped.osc) <= 0.010, "\(tapped)")
        let latest = ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] == nil ? 0.025 : 0.060
        #expect((tapped.wled + tapped.osc).allSatisfy { $0 >= -0.002 && $0 <= latest }, "\(tapped)")
    }
}
