import Foundation
import Testing

/// What `render`, `peaks` and `--record` write, and above all what they must never touch.
@Suite("Writing outputs safely", .serialized)
struct OutputSafetyTests {
    let headless = ["DISPLAY": "", "XDG_CACHE_HOME": NSTemporaryDirectory() + "decibar-output-test-cache"]

    /// A folder holding a 1 s tone and a few other files, to be checked before and after, inside a
    /// parent folder with a file of its own (for `-o ..`).
    func workspace() throws -> (folder: String, input: String) {
        let parent = try TestRig.temporaryDirectory()
        _ = FileManager.default.createFile(atPath: parent + "/sibling.txt", contents: Data("next door\n".utf8))
        let folder = parent + "/work"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let input = folder + "/in.wav"
        try TestRig.makeTone(at: input, amplitude: 0.5, seconds: 1)
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
        for name in ["notes.txt", "sub/keep.txt", ".hidden"] {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("precious \(name)\n".utf8))
        }
        return (folder, input)
    }

    @Test("render -o onto a non-empty folder, ., .., / or its own input: one line, status 2, nothing touched",
          arguments: ["sub", "sub/", ".", "./", "..", "/", "in.wav", "./in.wav", "same.mp4"])
    func refusedDestinations(output: String) throws {
        let (folder, input) = try workspace()
        let parent = (folder as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: parent) }
        var arguments = ["render", "in.wav", "-o", output, "--size", "64x64", "--fps", "5"]
        if output == "same.mp4" {
            // The input is an .mp4 and OUT is that very file.
            try TestRig.ffmpeg(["-i", input, "-c:a", "aac", folder + "/same.mp4"])
            arguments[1] = "same.mp4"
        }
        let before = try TestRig.fingerprint(of: parent)
        let outcome = try TestRig.decibar(arguments, environment: headless, directory: folder)
        #expect(outcome.status == 2 && !outcome.signaled, "\(output): \(outcome)")
        #expect(outcome.errorLines.count == 1, "\(output): \(outcome)")
        #expect(try TestRig.fingerprint(of: parent) == before, "\(output): files changed")
    }

    @Test("peaks and render refuse to replace anything that is not a regular file; an existing plain file is replaced")
    func filesAndSpecialFiles() throws {
        let (folder, input) = try workspace()
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        // Named pipes standing where the outputs would go (a device is refused the same way).
        for name in ["pipe.json", "pipe.mp4"] { mkfifo(folder + "/" + name, 0o644) }
        for arguments in [["peaks", input, "-o", folder + "/pipe.json"], ["render", input, "-o", folder + "/pipe.mp4"]] {
            let outcome = try TestRig.decibar(arguments, environment: headless, timeout: 10)
            #expect(outcome.status == 2 && outcome.errorLines.count == 1, "\(arguments): \(outcome)")
            #expect(outcome.error.contains("not a regular file"), "\(outcome)")
        }
        for name in ["pipe.json", "pipe.mp4"] {
            var info = stat()
            #expect(lstat(folder + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "\(name) was replaced")
        }
        let previous = folder + "/old.json"
        _ = FileManager.default.createFile(atPath: previous, contents: Data("old".utf8))
        let replaced = try TestRig.decibar(["peaks", input, "-o", previous])
        #expect(replaced.status == 0, "\(replaced)")
        #expect(String(decoding: FileManager.default.contents(atPath: previous) ?? Data(), as: UTF8.self).hasPrefix("{\"version\":2"))
        #expect(TestRig.partials(in: folder).isEmpty)
    }

    @Test("an empty folder, a new relative folder such as b/ and a name near 255 bytes all render")
    func acceptedDestinations() throws {
        let (folder, _) = try workspace()
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        try FileManager.default.createDirectory(atPath: folder + "/empty", withIntermediateDirectories: false)
        let longName = String(repeating: "n", count: 250) + ".mp4"
        for output in ["empty", "b/", longName] {
            let outcome = try TestRig.decibar(["render", "in.wav", "-o", output, "--size", "64x64", "--fps", "5"],
                                              environment: headless, directory: folder)
            #expect(outcome.status == 0, "\(output): \(outcome)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/empty").count == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/b").count == 5)
        #expect(FileManager.default.fileExists(atPath: folder + "/" + longName))
        #expect(TestRig.partials(in: folder).isEmpty)
    }

    @Test("a symlink planted where the old predictable temporary name would be is never written through")
    func plantedSymlink() throws {
        let (folder, input) = try workspace()
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let victim = folder + "/victim.txt"
        _ = FileManager.default.createFile(atPath: victim, contents: Data("untouched\n".utf8))
        // The shell's PID becomes decibar's by exec, so the link has the name the old writer used.
        let script = "ln -s \(victim) \(folder)/out.json.partial-$$ && exec \(TestRig.decibar) peaks \(input) -o \(folder)/out.json"
        let outcome = try TestRig.runBounded("sh", ["-c", script])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(String(decoding: FileManager.default.contents(atPath: victim) ?? Data(), as: UTF8.self) == "untouched\n")
        #expect(FileManager.default.fileExists(atPath: folder + "/out.json"))
    }

    @Test("a file named concat:a|b is read as itself, not as FFmpeg's concatenation of a and b")
    func protocolNames() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.makeTone(at: folder + "/a.wav", amplitude: 0.5, seconds: 1)
        try TestRig.makeTone(at: folder + "/b.wav", amplitude: 0.5, seconds: 1)
        try TestRig.makeTone(at: folder + "/concat:a.wav|b.wav", amplitude: 0.25, seconds: 0.5)
        let outcome = try TestRig.decibar(["levels", "--file", "concat:a.wav|b.wav", "--rate", "1"], directory: folder)
        #expect(outcome.status == 0, "\(outcome)")
        let last = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        let line = try #require(LevelsLine(last))
        #expect(abs(line.time - 0.5) < 0.01, "read \(line.time) s: \(last)")
        #expect(line.reads(rms: -15.05, peak: -12.04, tolerance: 0.1), "\(last)")
        // And as render's audio input to the ffmpeg program.
        let video = try TestRig.decibar(["render", "concat:a.wav|b.wav", "-o", "clip.mp4", "--size", "64x64"],
                                        environment: headless, directory: folder)
        #expect(video.status == 0, "\(video)")
        let probe = try TestRig.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=duration",
                                                "-of", "csv=p=0", folder + "/clip.mp4"])
        let seconds = Double(String(decoding: probe.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(abs(seconds - 0.5) < 0.1, "the video's audio lasts \(seconds) s")
    }
}
