import DecibarApp
import DecibarAudio
import DecibarCore
import Foundation
import Synchronization
import Testing

/// Playback while the machine is busy: six busy loops at normal priority on the two cores (as a
/// parallel build makes), in the test's own scheduling group, while `decibar play` plays a steady
/// tone; the monitor is recorded by parec and searched for gaps (1 ms or more of digital silence)
/// and jumps (a step between neighbouring samples beyond the tone's steepest).
@Suite("Playback under load, recorded from the monitor", .serialized)
struct SteadyPlaybackTests {
    static let sampleRate = 48000.0
    static let reader = DedicatedThreadExecutor(name: "steady-reader")
    /// Under a sanitizer's 5-15x slowdown the stretcher itself cannot keep real time: there the
    /// tests check that everything plays and is counted, not that nothing breaks up.
    static let isSanitized = ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] != nil

    func samples(at path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Gaps (start frame and length in ms) and jumps (frames) inside the sound of `left`; a jump is
    /// a step above 1.25 times the steepest of a sine at `hertz` as loud as the loudest sample.
    func flaws(in left: [Float], hertz: Double) -> (gaps: [(Int, Double)], jumps: [Int], loudest: Float)? {
        guard let first = left.firstIndex(where: { abs($0) > 0.05 }), let last = left.lastIndex(where: { abs($0) > 0.05 }) else { return nil }
        var gaps: [(Int, Double)] = []
        var run = 0
        for index in first ... last {
            if abs(left[index]) <= 1e-6 {
                run += 1
            } else {
                if run >= 48 { gaps.append((index - run, Double(run) / 48)) }
                run = 0
            }
        }
        let loudest = left[first ... last].map { abs($0) }.max() ?? 0
        let bound = Float(1.25 * 2 * Double.pi * hertz / Self.sampleRate) * loudest
        let jumps = (first ..< last).filter { abs(left[$0 + 1] - left[$0]) > bound && abs(left[$0]) > 1e-6 && abs(left[$0 + 1]) > 1e-6 }
        return (gaps, jumps, loudest)
    }

    @Test("under six busy loops, play at rate 1, at rate 1.5 and at pitch +300 cents puts no gap and no jump into what is heard",
          arguments: [("", 440.0), ("--rate=1.5", 440.0), ("--pitch=300", 440.0 * 1.189207115)])
    func noGapUnderLoad(option: String, hertz: Double) throws {
        let server = try PrivatePulseServer()
        let file = server.directory + "/tone.wav"
        // Faded in and out over 10 ms, so that its edges are no jumps.
        try TestRig.makeSignal(at: file, "0.5*sin(2*PI*440*t)*min(1,min(t,5-t)/0.01)", seconds: 5)
        let recording = server.directory + "/heard.raw"
        let recorder = try server.record(to: recording)
        let load = try BusyLoops(count: 6)
        let played = try TestRig.run(TestRig.decibar, ["play", file, "--exit-at-end", "--size", "320x180"] + (option.isEmpty ? [] : [option]),
                                     environment: server.environment)
        load.stop()
        usleep(300_000)
        recorder.kill()
        #expect(played.status == 0, "\(played.error)")
        let left = try samples(at: recording).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let found = try #require(flaws(in: left, hertz: hertz), "nothing was heard")
        if Self.isSanitized {
            #expect(found.gaps.isEmpty || played.error.contains("ran dry"), "gaps nobody counted: \(played.error)")
        } else {
            #expect(found.gaps.isEmpty, "\(found.gaps.count) gaps under load: \(found.gaps.prefix(5).map { "\(Double($0.0) / 48000) s: \($0.1) ms" })")
            #expect(found.jumps.isEmpty, "\(found.jumps.count) jumps under load, at \(found.jumps.prefix(5).map { Double($0) / 48000 }) s")
            // The player's own count says the same: no underrun, no dropout.
            #expect(!played.error.contains("underrun") && !played.error.contains("ran dry"), "\(played.error)")
        }
        print("under load, play \(option.isEmpty ? "at rate 1" : option): \(found.gaps.count) gaps, \(found.jumps.count) jumps, peak \(found.loudest)")
    }

    /// Rising zero crossings of `signal` (fractional indices).
    func crossings(_ signal: [Float]) -> [Double] {
        var found: [Double] = []
        for index in 1 ..< signal.count where signal[index - 1] < 0 && signal[index] >= 0 {
            let a = Double(signal[index - 1]), b = Double(signal[index])
            found.append(Double(index - 1) + a / (a - b))
        }
        return found
    }

    /// The least-squares line through `points`: slope and intercept.
    func line(_ points: [(x: Double, y: Double)]) -> (slope: Double, intercept: Double) {
        let n = Double(points.count)
        let meanX = points.map(\.x).reduce(0, +) / n, meanY = points.map(\.y).reduce(0, +) / n
        let slope = points.map { ($0.x - meanX) * ($0.y - meanY) }.reduce(0, +) / points.map { ($0.x - meanX) * ($0.x - meanX) }.reduce(0, +)
        return (slope, meanY - slope * meanX)
    }

    @Test("under load, a change from rate 1 to 1.5 is heard within 100 ms of asking, without a gap")
    func rateChangeHeardSoon() async throws {
        let server = try PrivatePulseServer()
        let file = server.directory + "/chirp.wav"
        // A chirp rising 100 Hz a second from 300 Hz: the pitch heard tells the file time heard.
        try TestRig.makeSignal(at: file, "0.5*sin(2*PI*(300*t+50*t*t))", seconds: 7)
        let tap = try PulseMonitorTap(target: .named("viz.monitor"), fragmentDuration: 256 / Self.sampleRate, server: server.serverAddress)
        tap.start()
        defer { tap.stop() }
        let heard = Mutex<[(time: Double, sample: Float)]>([])
        let reader = Task(executorPreference: Self.reader) {
            for await buffer in tap.buffers {
                buffer.withSamples { samples in
                    let count = buffer.frameCount
                    heard.withLock { all in
                        for frame in 0 ..< count {
                            all.append((buffer.captureTime - Double(count - 1 - frame) / Self.sampleRate, samples[frame * buffer.channelCount]))
                        }
                    }
                }
            }
        }
        let load = try BusyLoops(count: 6)
        defer { load.stop() }
        let player = try PulsePlayer(source: try FilePlaybackSource(path: file), server: server.serverAddress,
                                     priority: RealtimePriority.shared)
        player.play()
        usleep(2_500_000)
        let asked = HostClock.now()
        let latency = player.latency
        player.setTimeAndPitch(rate: 1.5, pitchScale: 1)
        usleep(2_000_000)
        player.stop()
        load.stop()
        usleep(200_000)
        tap.stop()
        reader.cancel()
        #expect(tap.droppedBufferCount == 0, "the monitor's reader fell behind: \(tap.droppedBufferCount) buffers lost")
        let all = heard.withLock { $0 }
        let signal = all.map(\.sample)
        // The monitor is a steady 48 kHz clock: each frame's time is the stamps' median offset from it.
        let offsets = all.enumerated().map { $0.element.time - Double($0.offset) / Self.sampleRate }.sorted()
        let origin = offsets[offsets.count / 2]
        let found = try #require(flaws(in: signal, hertz: 1100), "nothing was heard")
        #expect(found.gaps.isEmpty || Self.isSanitized, "gaps: \(found.gaps.prefix(5).map { "\($0.1) ms" })")
        // The file time heard at each period: (frequency - 300) / 100.
        let periods = crossings(signal)
        let points = zip(periods, periods.dropFirst()).map { a, b in
            (x: origin + (a + b) / 2 / Self.sampleRate, y: (Self.sampleRate / (b - a) - 300) / 100)
        }
        let before = line(points.filter { $0.x > asked - 1.0 && $0.x < asked - 0.02 })
        let after = line(points.filter { $0.x > asked + 0.3 && $0.x < asked + 1.3 })
        #expect(abs(before.slope - 1) < 0.03 && abs(after.slope - 1.5) < 0.03, "file seconds per second: \(before.slope), then \(after.slope)")
        // Where the two lines meet: when the new rate was heard.
        let changed = (after.intercept - before.intercept) / (before.slope - after.slope)
        let delay = changed - asked
        #expect(delay > 0 && delay <= (Self.isSanitized ? 0.300 : 0.100), "the new rate was heard \(delay * 1000) ms after it was asked for")
        print("under load, rate 1 → 1.5 heard \(delay * 1000) ms after asking (the server's queue: \(latency * 1000) ms); rates \(before.slope), \(after.slope)")
    }

    /// The real-time threads of the daemon: their priorities (round-robin only), from /proc.
    func realtimeThreads(of rig: DaemonRig) throws -> [Int] {
        let pid = try #require(rig.daemon?.process.processIdentifier)
        let threads = ProcessThread.threads(of: pid)
        try #require(!threads.isEmpty, "the daemon (\(pid)) has no threads in /proc")
        return threads.compactMap(\.roundRobinPriority)
    }

    @Test("the player's sound threads (the stage's and libpulse's) run real-time where the process may, and quietly do not where it may not",
          arguments: [("root", [String](), true), ("no CAP_SYS_NICE", ["setpriv", "--bounding-set=-sys_nice", "--"], false)])
    func realtimeWhereAllowed(label: String, launcher: [String], allowed: Bool) throws {
        let rig = try DaemonRig(launcher: launcher)
        let tone = rig.server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 4)
        #expect(try realtimeThreads(of: rig).isEmpty, "\(label): real-time threads before anything plays")
        #expect(try rig.ctl("open", tone).status == 0)
        #expect(TestRig.wait(timeout: 10) { (try? rig.player("state")) == .string("playing") })
        let summary = try rig.player("priority")?.string ?? ""
        let threads = try realtimeThreads(of: rig)
        if allowed {
            #expect(summary == "realtime (priority \(RealtimePriority.priority), directly)", "\(label): \(summary)")
            #expect(threads == [Int(RealtimePriority.priority), Int(RealtimePriority.priority)], "\(label): real-time threads \(threads)")
        } else {
            #expect(summary.hasPrefix("normal ("), "\(label): \(summary)")
            #expect(threads.isEmpty, "\(label): real-time threads \(threads)")
        }
        // Either way it plays, and says nothing about it.
        #expect(TestRig.wait(timeout: 10) { (try? rig.player("position"))?.number ?? 0 > 1 })
        let said = rig.daemon?.standardError ?? ""
        #expect(!said.contains("priority") && !said.contains("real-time"), "\(said)")
        print("\(label): \(summary)")
    }

    /// The nice value of each thread of the daemon, by name (`llvmpipe-0`, `decibar`, ...).
    private func threadNiceness(of rig: DaemonRig) throws -> [(thread: Int, name: String, nice: Int)] {
        guard let pid = rig.daemon?.process.processIdentifier else { return [] }
        let threads = ProcessThread.threads(of: pid)
        try #require(!threads.isEmpty, "the daemon (\(pid)) has no threads in /proc")
        return threads.compactMap { thread in thread.niceness.map { (thread.id, thread.name, $0) } }
    }

    @Test("the window's drawing thread and the software rasterizer's threads run at nice -10 where the process may, stay at 0 where it may not, and a daemon started under nice stays there",
          arguments: [("root", [String](), "nice -10 (directly)", -10),
                      ("no CAP_SYS_NICE", ["setpriv", "--bounding-set=-sys_nice", "--"], "nice 0 (", 0),
                      ("nice 5", ["nice", "-n", "5"], "nice 5 (as started)", 5)])
    func windowRaisedWhereAllowed(label: String, launcher: [String], summary: String, niceness: Int) throws {
        let screen = try PrivateDisplay()
        let rig = try DaemonRig(arguments: ["--window", "shown"], environment: ["DISPLAY": screen.display], launcher: launcher)
        #expect(TestRig.wait(timeout: 10) { (try? rig.status())?["window_priority"] != nil })
        let said = try rig.status()["window_priority"]?.string ?? ""
        #expect(said.hasPrefix(summary), "\(label): \(said)")
        let threads = try threadNiceness(of: rig)
        let rasterizers = threads.filter { $0.name.hasPrefix("llvmpipe") }
        #expect(!rasterizers.isEmpty && rasterizers.allSatisfy { $0.nice == niceness }, "\(label): \(threads)")
        // The drawing thread is the main one; the sound server's thread is raised by its own rule.
        #expect(threads.first { $0.thread == Int(rig.daemon?.process.processIdentifier ?? 0) }?.nice == niceness, "\(label): \(threads)")
        print("\(label): \(said); rasterizers at \(rasterizers.map(\.nice))")
    }
}
