import Foundation
import Testing

/// Renders and recordings stopped in every way a user (or the machine) can stop them.
@Suite("Interrupted renders and recordings")
struct InterruptionTests {
    let headless = ["DISPLAY": "", "XDG_CACHE_HOME": NSTemporaryDirectory() + "decibar-interruption-test-cache"]

    /// The ffmpeg process `decibar` (pid) started, once it exists.
    func ffmpegChild(of pid: pid_t, timeout: Double = 20) -> pid_t? {
        let deadline = TestRig.now() + timeout
        while TestRig.now() < deadline {
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            for child in children.split(separator: " ").compactMap({ pid_t($0) }) {
                let name = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
                if name.hasPrefix("ffmpeg") { return child }
            }
            usleep(20_000)
        }
        return nil
    }

    /// A PATH whose `ffmpeg` is a shell script of the test's (`body`), ahead of the real one.
    func fakeFFmpeg(in folder: String, _ body: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: false)
        try ("#!/bin/sh\n" + body).write(toFile: folder + "/bin/ffmpeg", atomically: true, encoding: .utf8)
        chmod(folder + "/bin/ffmpeg", 0o755)
        return folder + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    func isAlive(_ pid: pid_t) -> Bool {
        // A zombie still answers kill(0); look at its state.
        let status = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !status.isEmpty && !status.contains(") Z ")
    }

    // A WebM: it goes through the ffmpeg program (an MP4 is encoded in the process).
    @Test("a render whose ffmpeg has stalled still stops on SIGTERM or SIGINT, within seconds, leaving nothing",
          arguments: [SIGTERM, SIGINT])
    func stalledFFmpeg(signal: Int32) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=330:sample_rate=48000:duration=60", "-ac", "2", folder + "/long.flac"])
        let running = try RunningCommand(["render", folder + "/long.flac", "-o", folder + "/out.webm", "--size", "640x360"],
                                         environment: headless)
        let ffmpeg = try #require(ffmpegChild(of: running.process.processIdentifier))
        usleep(500_000)
        kill(ffmpeg, SIGSTOP)
        // Long enough for the 1 MB pipe to fill: decibar is now blocked on ffmpeg.
        usleep(800_000)
        let sent = TestRig.now()
        kill(running.process.processIdentifier, signal)
        let status = running.waitForExit(timeout: 10)
        let took = TestRig.now() - sent
        kill(ffmpeg, SIGCONT)
        #expect(status == 130, "status \(String(describing: status)) after \(took) s: \(running.standardError)")
        #expect(took < 5, "took \(took) s to stop")
        #expect(running.standardError.contains("interrupted"), "\(running.standardError)")
        #expect(TestRig.wait(timeout: 5) { !isAlive(ffmpeg) }, "ffmpeg was left running")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.webm"))
        #expect(TestRig.partials(in: folder).isEmpty, "\(TestRig.partials(in: folder))")
    }

    @Test("an ffmpeg that writes far more than a pipe holds to stderr does not deadlock the render")
    func chattyFFmpeg() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.makeTone(at: folder + "/in.wav", amplitude: 0.5, seconds: 2)
        // Stands in for ffmpeg: 300 KB of messages first, then it reads all its input and writes OUT.
        let path = try fakeFFmpeg(in: folder, """
            head -c 300000 /dev/zero | tr '\\0' 'x' >&2
            echo >&2 "the last line"
            cat > /dev/null
            for last; do :; done
            echo video > "${last#file:}"
            """)
        let outcome = try TestRig.decibar(["render", folder + "/in.wav", "-o", folder + "/out.webm", "--size", "320x180"],
                                          environment: headless.merging(["PATH": path]) { $1 }, timeout: 30)
        #expect(outcome.status == 0 && !outcome.timedOut, "\(outcome)")
        #expect(FileManager.default.fileExists(atPath: folder + "/out.webm"))
    }

    @Test("an ffmpeg that dies half-way: one line with its last message, status 1, nothing left")
    func dyingFFmpeg() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.makeTone(at: folder + "/in.wav", amplitude: 0.5, seconds: 10)
        let path = try fakeFFmpeg(in: folder, """
            head -c 2000000 > /dev/null
            echo >&2 "Conversion failed: the disk is on fire"
            exit 1
            """)
        let outcome = try TestRig.decibar(["render", folder + "/in.wav", "-o", folder + "/out.webm", "--size", "320x180"],
                                          environment: headless.merging(["PATH": path]) { $1 })
        #expect(outcome.status == 1 && !outcome.signaled && outcome.errorLines.count == 1, "\(outcome)")
        #expect(outcome.error.contains("the disk is on fire"), "\(outcome)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["bin", "in.wav"])
    }

    @Test("Ctrl-C while the overview is being analyzed: the message, status 130, nothing written")
    func interruptedOverview() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=330:sample_rate=48000:duration=600", "-ac", "2", folder + "/long.flac"])
        let cache = folder + "/cache"
        let running = try RunningCommand(["render", folder + "/long.flac", "-o", folder + "/out.mp4"],
                                         environment: headless.merging(["XDG_CACHE_HOME": cache]) { $1 })
        // The overview is under way once the file is open.
        let pid = running.process.processIdentifier
        func hasInputOpen() -> Bool {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            return descriptors.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)"))?.hasSuffix("long.flac") == true }
        }
        let deadline = TestRig.now() + 20
        while !hasInputOpen() && TestRig.now() < deadline { usleep(10_000) }
        #expect(hasInputOpen(), "the render never opened its input")
        kill(pid, SIGINT)
        let status = running.waitForExit(timeout: 10)
        #expect(status == 130, "\(String(describing: status)): \(running.standardError)")
        #expect(running.process.terminationReason == .exit)
        #expect(running.standardError.split(separator: "\n").count == 1 && running.standardError.contains("interrupted"),
                "\(running.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["long.flac"])
    }

    @Test("SIGKILL at random points of a render, then the same render again: only OUT remains")
    func killedRenders() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=330:sample_rate=48000:duration=20", "-ac", "2", folder + "/in.flac"])
        var generator = SystemRandomNumberGenerator()
        var expected: [String] = ["in.flac"]
        for output in ["out.mp4", "frames/"] {
            var killedAt: [Double] = []
            for _ in 0 ..< 3 {
                let delay = Double.random(in: 0.05 ... 2.0, using: &generator)
                killedAt.append(delay)
                // 1200 frames: far more than a render makes in the 2 s before the kill, so it never
                // finishes first (a finished folder is rightly refused as a non-empty OUT).
                let running = try RunningCommand(["render", folder + "/in.flac", "-o", folder + "/" + output, "--size", "640x360",
                                                  "--fps", "60"], environment: headless)
                usleep(useconds_t(delay * 1_000_000))
                kill(running.process.processIdentifier, SIGKILL)
                _ = running.waitForExit(timeout: 10)
            }
            // ffmpeg finishes its partial file after decibar dies; give it a moment.
            usleep(500_000)
            let again = try TestRig.decibar(["render", folder + "/in.flac", "-o", folder + "/" + output, "--size", "160x90",
                                             "--duration", "1"], environment: headless)
            #expect(again.status == 0, "\(again)")
            expected.append(output.hasSuffix("/") ? String(output.dropLast()) : output)
            let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(left == expected.sorted(), "killed at \(killedAt) s: left \(left)")
            #expect(TestRig.partials(in: folder).isEmpty, "killed at \(killedAt) s: \(TestRig.partials(in: folder))")
        }
    }

    @Test("SIGKILL at random points of live --record, then recording again: only OUT remains")
    func killedRecordings() throws {
        let server = try PrivatePulseServer()
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let music = folder + "/music.wav"
        try TestRig.makeTone(at: music, amplitude: 0.4, seconds: 30)
        let player = try server.play(music)
        defer { player.kill() }
        let output = folder + "/rec.mp4"
        var generator = SystemRandomNumberGenerator()
        var killedAt: [Double] = []
        for _ in 0 ..< 3 {
            let delay = Double.random(in: 0.2 ... 2.5, using: &generator)
            killedAt.append(delay)
            let running = try RunningCommand(["live", "--record", output, "--size", "320x200"], environment: server.environment)
            usleep(useconds_t(delay * 1_000_000))
            kill(running.process.processIdentifier, SIGKILL)
            _ = running.waitForExit(timeout: 10)
        }
        usleep(500_000)
        let again = try TestRig.decibar(["live", "--record", output, "--size", "320x200", "--exit-after", "1"],
                                        environment: server.environment)
        #expect(again.status == 0, "\(again)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(left == ["music.wav", "rec.mp4"], "killed at \(killedAt) s: left \(left)")
    }

    @Test("live --record onto a full disk: one line, status 1, no partial files; without ffmpeg: one line, no files")
    func recordingFailures() throws {
        let server = try PrivatePulseServer()
        let music = server.directory + "/music.wav"
        try TestRig.makeTone(at: music, amplitude: 0.4, seconds: 30)
        let player = try server.play(music)
        defer { player.kill() }
        let disk = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: disk) }
        // A 1 MB file system of the test's own (in a private mount namespace, so nothing outlives the run).
        // What is left on it is listed on stdout before the namespace goes.
        let command = "mount -t tmpfs -o size=1m tmpfs \(disk) || exit 99; \(TestRig.decibar) live --record \(disk)/rec.mp4 --size 320x200 --exit-after 15; status=$?; ls -A \(disk); exit $status"
        let full = try TestRig.runBounded("unshare", ["-m", "sh", "-c", command], environment: server.environment, timeout: 40)
        #expect(full.status == 1 && !full.signaled, "\(full)")
        #expect(full.errorLines.filter { !$0.contains("listening to") }.count == 1, "\(full)")
        #expect(full.error.contains("No space left on device"), "\(full)")
        #expect(full.seconds < 14, "it should stop as soon as the disk is full, not at --exit-after")
        #expect(String(decoding: full.output, as: UTF8.self).isEmpty, "left on the full disk: \(String(decoding: full.output, as: UTF8.self))")
        // Without ffmpeg nothing may even be created:
        let noFFmpeg = try TestRig.decibar(["live", "--record", disk + "/rec.mp4", "--size", "320x200", "--exit-after", "1"],
                                           environment: server.environment.merging(["PATH": "/nonexistent"]) { $1 })
        #expect(noFFmpeg.status == 1 && noFFmpeg.errorLines.count == 1 && noFFmpeg.error.contains("ffmpeg"), "\(noFFmpeg)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk).isEmpty)
    }
}
