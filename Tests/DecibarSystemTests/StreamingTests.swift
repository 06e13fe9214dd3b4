import DecibarApp
import DecibarAudio
import DecibarCore
import Foundation
import Testing

/// Tracks streamed over HTTP from a real nginx (and a small radio server) on loopback, played by a
/// real daemon or `play` into a private PulseAudio, recorded from the null sink's monitor.
@Suite("Streaming over HTTP", .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct StreamingTests {
    /// Each test blocks for seconds at a time: on a thread of the suite's own, not the pool's.
    static let thread = DedicatedThreadExecutor(name: "streaming-tests")

    func onOwnThread(_ body: () throws -> Void) async throws {
        try await withTaskExecutorPreference(Self.thread) { try body() }
    }

    /// A stereo sweep with a DC offset (silence is told apart from it), as FLAC.
    func makeSweep(_ path: String, seconds: Int) throws {
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                                              "aevalsrc=0.5*sin(2*PI*(200+300*t/\(seconds))*t)+0.01|0.4*sin(2*PI*(500+100*t/\(seconds))*t)+0.01:s=48000:d=\(seconds)",
                                              path])
        #expect(made.status == 0, "\(made.error)")
    }

    func decodeAll(_ path: String) throws -> [Float] {
        let decoder = try AudioFileDecoder(path: path)
        var all: [Float] = []
        while try decoder.read({ all.append(contentsOf: $0) }) {}
        return all
    }

    func samples(at path: String) -> [Float] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Frames recorded so far.
    func recordedFrames(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 8
    }

    /// Where `needle` (interleaved stereo) first appears in `haystack` at or after `from`, sample for sample.
    func offset(of needle: ArraySlice<Float>, in haystack: [Float], from: Int = 0) -> Int? {
        guard let first = needle.first else { return nil }
        var index = from - from % 2
        while index + needle.count <= haystack.count {
            if abs(haystack[index] - first) < 1e-6,
               zip(haystack[index ..< index + needle.count], needle).allSatisfy({ abs($0 - $1) < 1e-6 }) {
                return index
            }
            index += 2
        }
        return nil
    }

    /// Compares a recording from `start` with the decoded samples: where they first differ (an index
    /// into `decoded`, with a few samples of each there), and how many stretches of silence (whole
    /// frames of zeros, which the test file never has) came between equal samples.
    func compare(_ recorded: [Float], from start: Int, with decoded: [Float])
        -> (firstDifference: Int?, gaps: Int, recorded: ArraySlice<Float>, decoded: ArraySlice<Float>) {
        var index = start, gaps = 0
        var position = 0
        while position < decoded.count {
            if index < recorded.count, abs(recorded[index] - decoded[position]) < 1e-6 {
                index += 1
                position += 1
                continue
            }
            let silent = position % 2 == 0 && index + 1 < recorded.count && recorded[index] == 0 && recorded[index + 1] == 0
            guard silent else {
                return (position, gaps, recorded[min(index, recorded.count)...].prefix(6), decoded[position...].prefix(6))
            }
            while index + 1 < recorded.count, recorded[index] == 0, recorded[index + 1] == 0 { index += 2 }
            gaps += 1
        }
        return (nil, gaps, [], [])
    }

    func stream(_ rig: DaemonRig) throws -> [String: JSONValue] {
        guard case .object(let stream)? = try rig.player("stream") else { return [:] }
        return stream
    }

    func number(_ value: JSONValue?) -> Double { value?.number ?? -1 }

    /// A sweep served under /slow/ at 3 s of its audio a second (it downloads in a third of its
    /// length), and a daemon with a cache of its own: the folder, the server, the file's size, the daemon.
    func throttledSweep(seconds: Int) throws -> (String, NginxServer, Int, DaemonRig) {
        let folder = try TestRig.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder + "/web/www", withIntermediateDirectories: true)
        try makeSweep(folder + "/web/www/sweep.flac", seconds: seconds)
        let size = try FileManager.default.attributesOfItem(atPath: folder + "/web/www/sweep.flac")[.size] as! Int
        let server = try NginxServer(directory: folder + "/web", rate: size * 3 / seconds)
        let rig = try DaemonRig(arguments: ["--size", "480x270"], environment: ["XDG_CACHE_HOME": folder + "/cache"])
        return (folder, server, size, rig)
    }

    @Test("a throttled 15 s file: heard within 500 ms, exactly as decoded; the scrubber shades what arrived; the overview then equals decibar peaks")
    func throttledPlaysWhileDownloading() async throws {
        try await onOwnThread {
            let (folder, server, _, rig) = try throttledSweep(seconds: 15)
            #expect(try rig.ctl("show").status == 0)
            // A screenshot waits for the window's first frame: with a cold shader cache the first
            // show compiles for 0.3-0.6 s, and the open would wait behind it (this times the stream).
            #expect(try rig.ctl("screenshot", folder + "/shown.png").status == 0)
            let recording = rig.server.directory + "/recorded.raw"
            let recorder = try rig.server.record(to: recording)
            defer { recorder.kill() }

            let before = recordedFrames(recording)
            let opened = try rig.ctl("open", server.url("sweep.flac", under: "slow/"))
            #expect(opened.status == 0, "\(opened.error)")
            // The first sound: the sweep's DC offset lifts every sample off zero.
            var heardAt: Int?
            _ = TestRig.wait(timeout: 5) {
                let recorded = samples(at: recording)
                heardAt = recorded.indices.dropFirst(before * 2).first { abs(recorded[$0]) > 1e-4 }
                return heardAt != nil
            }
            let latency = heardAt.map { Double($0 / 2 - before) / 48000 }
            // Under a sanitizer's slowdown the goal only checks that it starts before the download ends.
            let goal = ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] == nil ? 0.5 : 2.0
            #expect(latency != nil && latency! <= goal, "first audio after \(latency ?? -1) s (goal \(goal) s)")
            print("streaming: first audio \(latency ?? -1) s after ctl open (goal 0.5 s)")

            // Mid-download (about 1.5 s of its 5): part of the file shaded, part of the waveform drawn.
            usleep(1_000_000)
            let shot = folder + "/mid.png"
            #expect(try rig.ctl("screenshot", shot).status == 0)
            let midStream = try stream(rig)
            let fraction = number(midStream["downloaded_bytes"]) / number(midStream["total_bytes"])
            #expect(fraction > 0.1 && fraction < 0.6, "downloaded \(fraction) at 1.5 s")
            #expect(try rig.player("state") == .string("playing"))
            let frame = try RenderTests.Frame(png: shot, width: 480, height: 270)
            let layout = PlayLayout(width: 480, height: 270)
            let background = frame.pixel(x: layout.scrubberLeft + layout.scrubberWidth - 2, y: layout.scrubberTop + 2)
            func x(_ share: Double) -> Int { layout.scrubberLeft + Int(share * Double(layout.scrubberWidth)) }
            let shadeRow = layout.scrubberTop + layout.scrubberHeight - 2
            #expect(frame.pixel(x: x(0.05), y: shadeRow) != background, "no download shading at 5 %")
            #expect(frame.pixel(x: x(0.95), y: shadeRow) == background, "shading at 95 % before it arrived")
            // Drawn columns reach well away from the center line; where nothing is analyzed, only the line.
            func columnHeight(_ share: Double) -> Int {
                (layout.scrubberTop + 4 ..< layout.scrubberTop + layout.scrubberHeight - 4).count { frame.pixel(x: x(share), y: $0) != background
                    && frame.pixel(x: x(share), y: $0) != frame.pixel(x: x(0.95), y: layout.scrubberTop + 4) }
            }
            #expect(columnHeight(0.03) > 6, "no waveform at 3 %")
            #expect(columnHeight(0.9) <= 2, "a waveform at 90 % before it arrived")

            // The download completes long before the playing does; the track then plays to its end.
            #expect(TestRig.wait(timeout: 40) { (try? stream(rig)["complete"]) == .bool(true) }, "the download did not complete")
            #expect(TestRig.wait(timeout: 70) { (try? rig.player("state")) == .string("stopped") }, "the track did not end")
            usleep(300_000)
            recorder.kill()

            let decoded = try decodeAll(server.www + "/sweep.flac")
            let recorded = samples(at: recording)
            let start = offset(of: decoded[0 ..< 960], in: recorded)
            #expect(start != nil, "the start of the file is not in the recording")
            if let start {
                // Every decoded sample, in order. The only thing allowed between them is silence the
                // player counted as a dropout (the machine too busy to hand over audio in time):
                // never other audio, never a repeat.
                let comparison = compare(recorded, from: start, with: decoded)
                let finalStream = (try? stream(rig)) ?? [:]
                let dropouts = Int(number(try rig.player("dropouts")))
                let state = finalStream.description + " " + (rig.daemon?.standardError.suffix(1500) ?? "")
                #expect(comparison.firstDifference == nil, "differs from frame \((comparison.firstDifference ?? 0) / 2) on, after \(comparison.gaps) gaps (\(state)): recorded \(comparison.recorded), decoded \(comparison.decoded)")
                #expect(comparison.gaps <= dropouts, "\(comparison.gaps) stretches of silence, \(dropouts) dropouts counted (\(state))")
                #expect(number(try rig.player("underruns")) == 0 && number(finalStream["buffering_count"]) == 0, "\(state)")
                if comparison.gaps > 0 { print("streaming: \(comparison.gaps) dropout(s) on a busy machine, each counted") }
            }

            // The overview the daemon made while it downloaded, as it cached it, is decibar peaks' own.
            let reference = folder + "/reference.dat"
            let peaks = try TestRig.run(TestRig.decibar, ["peaks", server.www + "/sweep.flac", "-o", reference])
            #expect(peaks.status == 0, "\(peaks.error)")
            let cached = try FileManager.default.contentsOfDirectory(atPath: folder + "/cache/decibar").filter { $0.hasSuffix(".dat") }
            #expect(cached.count == 1, "\(cached)")
            if let name = cached.first {
                let entry = try Data(contentsOf: URL(fileURLWithPath: folder + "/cache/decibar/" + name))
                let expected = try Data(contentsOf: URL(fileURLWithPath: reference))
                #expect(entry.prefix(entry.count - 8) == expected, "the overview differs from decibar peaks'")
            }
        }
    }

    @Test("a seek to 80 % with 20 % downloaded is heard within 1 s (a range request), and the rest still downloads")
    func seekBeyondTheDownload() async throws {
        try await onOwnThread {
            // The 60 s file the 1 s goal was set on.
            let (_, server, size, rig) = try throttledSweep(seconds: 60)
            let recording = rig.server.directory + "/recorded.raw"
            let recorder = try rig.server.record(to: recording)
            defer { recorder.kill() }
            #expect(try rig.ctl("open", server.url("sweep.flac", under: "slow/")).status == 0)
            #expect(TestRig.wait(timeout: 10) {
                let stream = (try? stream(rig)) ?? [:]
                return number(stream["downloaded_bytes"]) >= 0.15 * Double(size)
            })
            let downloaded = number(try stream(rig)["downloaded_bytes"]) / Double(size)
            #expect(downloaded < 0.3, "\(downloaded) downloaded when seeking")
            let before = recordedFrames(recording)
            #expect(try rig.ctl("seek", "48").status == 0)
            usleep(2_500_000)
            let decoded = try decodeAll(server.www + "/sweep.flac")
            let target = 48 * 48000 * 2
            let landing = offset(of: decoded[target ..< target + 960], in: samples(at: recording), from: before * 2)
            #expect(landing != nil, "the audio from 48 s was not heard")
            if let landing {
                let delay = Double(landing / 2 - before) / 48000
                #expect(delay <= 1.0, "heard \(delay) s after the seek (goal 1 s)")
                print("streaming: a seek beyond the download heard after \(delay) s (goal 1 s)")
            }
            let ranges = server.accessLog.compactMap { line -> Int? in
                guard let range = line.split(separator: " ").first(where: { $0.hasPrefix("range=bytes=") }) else { return nil }
                return Int(range.dropFirst("range=bytes=".count).prefix { $0.isNumber })
            }
            #expect(ranges.contains { $0 > size / 2 }, "no range request near 80 %: \(server.accessLog)")
            #expect(TestRig.wait(timeout: 40) { (try? stream(rig)["complete"]) == .bool(true) },
                    "the rest did not download: \(server.accessLog)")
            #expect(number(try stream(rig)["downloaded_bytes"]) == Double(size))
        }
    }

    @Test("a daemon frozen for 300 ms mid-track: the silence is counted as a dropout and the sound goes on exactly where it was")
    func frozenDaemonCountsDropout() async throws {
        try await onOwnThread {
            let folder = try TestRig.temporaryDirectory()
            let server = try NginxServer(directory: folder + "/web")
            try makeSweep(server.www + "/sweep.flac", seconds: 6)
            let rig = try DaemonRig(arguments: ["--size", "320x180"], environment: ["XDG_CACHE_HOME": folder + "/cache"])
            let recording = rig.server.directory + "/recorded.raw"
            let recorder = try rig.server.record(to: recording)
            defer { recorder.kill() }
            #expect(try rig.ctl("open", server.url("sweep.flac")).status == 0)
            #expect(TestRig.wait(timeout: 10) { ((try? rig.player("position"))?.number ?? 0) > 2 }, "never reached 2 s")
            let pid = try #require(rig.daemon?.process.processIdentifier)
            kill(pid, SIGSTOP)
            usleep(300_000)
            kill(pid, SIGCONT)
            #expect(TestRig.wait(timeout: 15) { (try? rig.player("state")) == .string("stopped") }, "the track did not end")
            usleep(300_000)
            recorder.kill()

            let decoded = try decodeAll(server.www + "/sweep.flac")
            let recorded = samples(at: recording)
            let start = try #require(offset(of: decoded[0 ..< 960], in: recorded), "the start of the file is not in the recording")
            let comparison = compare(recorded, from: start, with: decoded)
            let dropouts = Int(number(try rig.player("dropouts")))
            #expect(comparison.firstDifference == nil, "differs from frame \((comparison.firstDifference ?? 0) / 2) on: recorded \(comparison.recorded), decoded \(comparison.decoded)")
            #expect(comparison.gaps >= 1, "no silence while the daemon was frozen")
            #expect(dropouts >= 1 && comparison.gaps <= dropouts, "\(comparison.gaps) stretches of silence, \(dropouts) dropouts counted")
            #expect(number(try rig.player("underruns")) == 0)
        }
    }

    @Test("404, refused, a server killed mid-transfer, one that never answers, a redirect loop, a text file: one line each; the next entry plays")
    func failuresMoveOn() async throws {
        try await onOwnThread {
            let folder = try TestRig.temporaryDirectory()
            let doomed = try NginxServer(directory: folder + "/doomed", rate: 48_000)
            let server = try NginxServer(directory: folder + "/web")
            try makeSweep(doomed.www + "/long.flac", seconds: 20)
            let good = server.www + "/good.flac"
            let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                                  "aevalsrc=0.3*sin(2*PI*(300+200*t)*t)+0.01|0.2*sin(2*PI*700*t)+0.01:s=48000:d=1.5", good])
            #expect(made.status == 0)
            try "not audio at all\n".write(toFile: server.www + "/notes.txt", atomically: true, encoding: .utf8)
            let silent = try SilentListener(listening: true)
            let refusing = try SilentListener(listening: false)

            let pulse = try PrivatePulseServer()
            let recording = pulse.directory + "/recorded.raw"
            let recorder = try pulse.record(to: recording)
            defer { recorder.kill() }
            let killed = doomed.url("long.flac", under: "slow/")
            let missing = server.url("missing.flac")
            let refused = "http://127.0.0.1:\(refusing.port)/a.mp3"
            let mute = "http://127.0.0.1:\(silent.port)/a.mp3"
            let loop = server.url("start", under: "loop/")
            let text = server.url("notes.txt")
            let last = server.url("good.flac")
            let started = TestRig.now()
            let player = try RunningCommand(["play", killed, missing, refused, mute, loop, text, last, "--size", "320x180",
                                             "--exit-at-end", "--stream-timeout", "2"],
                                            environment: pulse.environment.merging(["XDG_CACHE_HOME": folder + "/cache"]) { $1 })
            // Killed once it plays.
            _ = TestRig.wait(timeout: 10) { player.standardError.contains("playing \(killed)") }
            usleep(1_000_000)
            doomed.kill()
            let status = player.waitForExit(timeout: 60)
            let elapsed = TestRig.now() - started
            usleep(300_000)
            recorder.kill()
            let lines = player.standardError.split(separator: "\n").map { line in
                line.hasPrefix("decibar: ") ? String(line.dropFirst("decibar: ".count)) : String(line)
            }
            #expect(status == 0, "\(lines)")
            // The silent server is given up on after the stated 2 s, not the default 10.
            #expect(elapsed < 25, "took \(elapsed) s")
            for (url, words) in [(killed, "connection"), (missing, "404"), (refused, "refused"), (mute, "2 s"),
                                 (loop, "redirect"), (text, "not an audio file")] {
                let failures = lines.filter { $0.hasPrefix(url + ": ") }
                #expect(failures.count == 1, "\(url): \(lines)")
                #expect(failures.first?.contains(words) == true, "\(url) should say \(words): \(failures)")
            }
            #expect(lines.contains("playing \(last)"), "\(lines)")

            let decoded = try decodeAll(good)
            let recorded = samples(at: recording)
            #expect(offset(of: decoded[48000 ..< 48000 + 960], in: recorded) != nil, "the last entry was not heard")
        }
    }

    @Test("an endless radio with ICY titles plays 20 s with bounded memory; status shows live and the title")
    func endlessRadio() async throws {
        try await onOwnThread {
            let folder = try TestRig.temporaryDirectory()
            let mp3 = folder + "/radio.mp3"
            let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                                  "aevalsrc=0.4*sin(2*PI*(300+100*sin(t))*t)|0.3*sin(2*PI*500*t):s=44100:d=12",
                                                  "-b:a", "128k", mp3])
            #expect(made.status == 0, "\(made.error)")
            let radio = try RadioServer(mp3: mp3, bytesPerSecond: 16_000, directory: folder)
            let rig = try DaemonRig(arguments: ["--size", "480x270"], environment: ["XDG_CACHE_HOME": folder + "/cache"])
            #expect(try rig.ctl("show").status == 0)
            let opened = try rig.ctl("open", radio.url)
            #expect(opened.status == 0, "\(opened.error)")
            #expect(TestRig.wait(timeout: 10) { (try? rig.player("state")) == .string("playing") })
            usleep(8_000_000)
            let early = rig.residentKiB
            #expect(try rig.heardRMS(seconds: 1) > -30, "the radio is not heard")
            usleep(12_000_000)
            let late = rig.residentKiB
            #expect(try rig.player("state") == .string("playing"))
            let stream = try stream(rig)
            #expect(stream["live"] == .bool(true))
            #expect(stream["station"] == .string("Decibar Test Radio"))
            let title = stream["title"]?.string ?? ""
            // A new title every 5 s, 20 s in.
            #expect(title.hasPrefix("Song ") && (Int(title.dropFirst(5)) ?? 0) >= 3, "title \(title)")
            #expect(try rig.heardRMS(seconds: 1) > -30, "the radio stopped being heard")
            // 12 s more of it cost no more than a few MB (an overview column per 256 frames, logs).
            if TestRig.measuresMemory {
                #expect(late - early < 8 << 10, "memory grew from \(early) KiB to \(late) KiB")
            }
            print("streaming: radio resident memory \(early) KiB at 8 s, \(late) KiB at 20 s")
            let shot = folder + "/radio.png"
            #expect(try rig.ctl("screenshot", shot).status == 0)
            // "live" where the length would be, in the played color.
            let frame = try RenderTests.Frame(png: shot, width: 480, height: 270)
            let layout = PlayLayout(width: 480, height: 270)
            let played = ScrubberTheme.default.played
            let labelPixels = (layout.labelTop ..< min(270, layout.labelTop + layout.labelSize + 4)).flatMap { y in
                (layout.scrubberLeft + layout.scrubberWidth - 40 ..< layout.scrubberLeft + layout.scrubberWidth).map { frame.pixel(x: $0, y: y) }
            }
            #expect(labelPixels.contains { abs(Int($0.0) - Int(played.red * 255)) < 24 && abs(Int($0.1) - Int(played.green * 255)) < 24
                && abs(Int($0.2) - Int(played.blue * 255)) < 24 }, "no live label")
        }
    }
}
