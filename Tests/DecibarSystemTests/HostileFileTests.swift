import DecibarApp
import Foundation
import Testing

/// Inputs and caches that lie, block or do not belong: each is handled with one line or ignored.
@Suite("Hostile files and caches", .serialized)
struct HostileFileTests {
    func tone(in folder: String, seconds: Double = 1) throws -> String {
        let path = folder + "/tone.mp3"
        try TestRig.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(seconds)", "-ac", "2",
                            "-c:a", "libmp3lame", path])
        return path
    }

    /// The `length` field of a `decibar peaks` JSON file.
    func peaksLength(_ path: String) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        return (object?["length"] as? NSNumber)?.intValue ?? -1
    }

    @Test("a header that claims billions of frames: peaks, render and play take the audio that is there")
    func lyingHeaders() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let corpus = try MalformedCorpus(in: folder)
        let server = try PrivatePulseServer()
        let environment = server.environment.merging(["XDG_CACHE_HOME": folder + "/cache"]) { $1 }
        for label in ["mp3 whose Xing header claims 0xFFFFFFFF frames", "RF64 whose ds64 chunk claims 9e15 bytes"] {
            let item = try #require(corpus.items.first { $0.label == label })
            let json = folder + "/peaks.json"
            let peaks = try TestRig.decibar(["peaks", item.path, "-o", json])
            #expect(peaks.status == 0 && !peaks.signaled, "\(label): \(peaks)")
            // One second at 44.1 kHz is 173 pairs of 256 frames (a little more for the MP3 decoder's padding).
            #expect((173 ... 176).contains(try peaksLength(json)), "\(label)")
            let render = try TestRig.decibar(["render", item.path, "-o", folder + "/out.mp4", "--size", "64x64"],
                                             environment: environment.merging(["DISPLAY": ""]) { $1 })
            #expect(render.status == 0 && (render.error.contains("rendered 30 frames") || render.error.contains("rendered 31 frames")),
                    "\(label): \(render)")
            let play = try TestRig.decibar(["play", item.path, "--size", "160x100", "--exit-at-end"], environment: environment, timeout: 20)
            #expect(play.status == 0 && !play.signaled, "\(label): \(play)")
        }
    }

    @Test("a WAV whose header claims 1, 2, 100 or 1000 Hz: levels in every mode, peaks, render to MP4, scale (keeping the pitch too) and play (faster too) succeed or answer in one line; no partial file is left",
          arguments: MalformedCorpus.lowRates)
    func lowRates(rate: Int) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Long enough for the beat finder's spectra (1024 frames at 1 Hz end at 0.5 Hz) and its tempo.
        let input = folder + "/low.wav"
        let frames = rate <= 2 ? 1024 : 4096
        _ = FileManager.default.createFile(atPath: input, contents: MalformedCorpus.wav(channels: 2, rate: UInt32(rate), frames: frames))
        let server = try PrivatePulseServer()
        let environment = server.environment.merging(["XDG_CACHE_HOME": folder + "/cache"]) { $1 }
        let out = folder + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        var runs: [[String]] = LevelsMode.allCases.map { ["levels", "--file", input, "--rate", "10", "--mode", $0.rawValue] }
        runs += [["peaks", input, "-o", out + "/peaks.json"],
                 ["render", input, "-o", out + "/video.mp4", "--size", "64x64", "--duration", "2"],
                 ["scale", input, "-o", out + "/scaled.wav", "--factor", "1.5"],
                 ["scale", input, "-o", out + "/kept.wav", "--factor", "1.5", "--keep-pitch"],
                 ["play", input, "--size", "160x100", "--exit-after", "0.5"],
                 ["play", input, "--size", "160x100", "--exit-after", "0.5", "--rate", "1.5"]]
        for arguments in runs {
            let outcome = try TestRig.decibar(arguments, environment: environment, timeout: 60)
            #expect(outcome.isOrderly && outcome.errorLines.count <= 1, "\(rate) Hz, \(arguments.prefix(1) + arguments.suffix(2)): \(outcome)")
        }
        #expect(TestRig.partials(in: out).isEmpty, "\(TestRig.partials(in: out))")
    }

    @Test("a FIFO given as the input: every command answers at once, in one line", arguments: [
        ["levels", "--file", "FIFO"], ["peaks", "FIFO", "-o", "OUT.json"], ["render", "FIFO", "-o", "OUT.mp4"],
        ["play", "FIFO", "--size", "160x100", "--exit-at-end"], ["play", "FIFO", "--size", "160x100", "--exit-after", "5"],
    ])
    func fifo(arguments: [String]) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        mkfifo(folder + "/input.wav", 0o644)
        let server = try PrivatePulseServer()
        let resolved = arguments.map { $0 == "FIFO" ? folder + "/input.wav" : $0 == "OUT.json" || $0 == "OUT.mp4" ? folder + "/" + $0 : $0 }
        let outcome = try TestRig.decibar(resolved, environment: server.environment, timeout: 10)
        #expect(outcome.status == 1 && outcome.errorLines.count == 1, "\(outcome)")
        #expect(outcome.error.contains("named pipe"), "\(outcome)")
        #expect(outcome.seconds < 4, "\(outcome)")
    }

    /// A well-formed cache entry: a `.dat` overview with the given header and flat pairs, then the
    /// frame count it covers.
    func datFile(rate: Int, channels: Int, length: Int) -> Data {
        func le<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
        var data = le(Int32(2)) + le(Int32(0)) + le(Int32(rate)) + le(Int32(256)) + le(Int32(length)) + le(Int32(channels))
        for _ in 0 ..< length * channels { data += Data([0x00, 0x80, 0xFF, 0x7F]) }
        return data + le(Int64(max(0, length * 256 - 100)))
    }

    @Test("well-formed but wrong cache files, and a 4 GiB one, are not trusted: the view is as without them")
    func wrongCaches() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try tone(in: folder, seconds: 2)
        let cache = folder + "/cache"
        let headless = ["DISPLAY": "", "XDG_CACHE_HOME": cache]
        func frames(_ name: String) throws -> [String] {
            let out = folder + "/" + name + "/"
            let render = try TestRig.decibar(["render", input, "-o", out, "--size", "320x180", "--fps", "2"], environment: headless)
            #expect(render.status == 0, "\(name): \(render)")
            let prints = try TestRig.fingerprint(of: out)
            return prints.keys.sorted().map { prints[$0]! }
        }
        let reference = try frames("reference")
        let cached = try #require(try FileManager.default.contentsOfDirectory(atPath: cache + "/decibar").first { $0.hasSuffix(".dat") })
        let cacheFile = cache + "/decibar/" + cached
        let good = try Data(contentsOf: URL(fileURLWithPath: cacheFile))
        #expect(try frames("with-good-cache") == reference)
        let wrong = [("no pairs", datFile(rate: 44100, channels: 2, length: 0)),
                     ("three pairs", datFile(rate: 44100, channels: 2, length: 3)),
                     ("one channel", datFile(rate: 44100, channels: 1, length: 345)),
                     ("another rate", datFile(rate: 22050, channels: 2, length: 345))]
        for (name, data) in wrong {
            try data.write(to: URL(fileURLWithPath: cacheFile))
            #expect(try frames(name.replacingOccurrences(of: " ", with: "-")) == reference, "a cache with \(name) was trusted")
            #expect(try Data(contentsOf: URL(fileURLWithPath: cacheFile)) == good, "a cache with \(name) was not replaced")
        }
        // A sparse 4 GiB file where the overview should be: play must not read it.
        #expect(truncate(cacheFile, 4 << 30) == 0)
        let server = try PrivatePulseServer()
        let play = try TestRig.decibar(["play", input, "--size", "160x100", "--exit-after", "1"],
                                       environment: server.environment.merging(["XDG_CACHE_HOME": cache]) { $1 }, timeout: 30)
        #expect(play.status == 0 && play.seconds < 8, "\(play)")
        var info = stat()
        #expect(stat(cacheFile, &info) == 0 && info.st_size < 1 << 20, "the huge cache file is still there")
        #expect(try frames("after-huge-cache") == reference)
    }

    @Test("with HOME unset the overview cache never goes to the shared temporary folder")
    func noHome() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try tone(in: folder)
        let temporary = folder + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        // Where the account's own home keeps it, to tidy up after the test.
        let home = getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } } ?? "/nonexistent"
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: home + "/.cache/decibar")) ?? [])
        let outcome = try TestRig.runBounded("env", ["-u", "HOME", "-u", "XDG_CACHE_HOME", "TMPDIR=\(temporary)", "DISPLAY=",
                                                     TestRig.decibar, "render", input, "-o", folder + "/out.mp4", "--size", "64x64"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "something was written to TMPDIR")
        for name in Set((try? FileManager.default.contentsOfDirectory(atPath: home + "/.cache/decibar")) ?? []).subtracting(before) {
            try? FileManager.default.removeItem(atPath: home + "/.cache/decibar/" + name)
        }
    }
}
