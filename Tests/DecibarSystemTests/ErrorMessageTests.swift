import Foundation
import Testing

/// Failures a user meets, each in one line with the right status and the right reason.
@Suite("Error messages")
struct ErrorMessageTests {
    /// A FLAC with a valid header and nothing playable after it.
    func undecodable(in folder: String) throws -> String {
        let good = folder + "/good.flac"
        try TestRig.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=3", "-ac", "2", good])
        var data = try Data(contentsOf: URL(fileURLWithPath: good))
        // Keep the metadata blocks (each: a header byte with the last-block flag, a 24-bit length).
        var offset = 4
        while offset + 4 <= data.count {
            let last = data[offset] & 0x80 != 0
            offset += 4 + (Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3]))
            if last { break }
        }
        data = data.prefix(offset) + Data(pseudoRandomBytes(count: 100_000, seed: 5))
        let path = folder + "/broken.flac"
        _ = FileManager.default.createFile(atPath: path, contents: data)
        return path
    }

    @Test("play of one file that cannot be played, or that has nothing decodable in it: one line, status 1")
    func unplayableFiles() throws {
        let server = try PrivatePulseServer()
        let folder = server.directory
        let noise = folder + "/noise.mp3"
        _ = FileManager.default.createFile(atPath: noise, contents: Data(pseudoRandomBytes(count: 20_000, seed: 3)))
        for file in [noise, try undecodable(in: folder), folder + "/missing.wav"] {
            let outcome = try TestRig.decibar(["play", file, "--size", "160x100", "--exit-at-end"], environment: server.environment, timeout: 20)
            #expect(outcome.status == 1, "\(file): \(outcome)")
            #expect(outcome.error.split(separator: "\n").count == 1, "\(file): \(outcome)")
            #expect(outcome.error.hasPrefix("decibar: " + file + ": "), "\(outcome)")
        }
        // levels --file says the same of the undecodable one.
        let levels = try TestRig.decibar(["levels", "--file", try undecodable(in: folder)])
        #expect(levels.status == 1 && levels.errorLines.count == 1, "\(levels)")
    }

    @Test("a newline in a path stays inside the one line")
    func newlineInPath() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for arguments in [["levels", "--file", folder + "/no\nsuch.wav"], ["peaks", folder + "/bad\nname.wav", "-o", folder + "/x.json"],
                          ["render", folder + "/a.wav", "-o", folder + "/out\nput.xyz"]] {
            let outcome = try TestRig.decibar(arguments, environment: ["DISPLAY": ""])
            #expect(outcome.status != 0 && outcome.error.split(separator: "\n").count == 1, "\(arguments): \(outcome)")
            #expect(outcome.error.contains("\\n"), "\(outcome)")
        }
    }

    @Test("DISPLAY naming an X server that is not there: one line that says so")
    func missingXServer() throws {
        // A file that can be read: play says what is wrong with its files before it opens a window.
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.makeTone(at: folder + "/x.wav", amplitude: 0.5, seconds: 1)
        // A display no X server has (neither its socket nor its lock file): a fixed one was once
        // taken by an Xvfb left running.
        let number = try #require((177 ..< 277).first { number in
            !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") && !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        })
        for command in [["live", "--exit-after", "1"], ["play", folder + "/x.wav", "--exit-after", "1"]] {
            let outcome = try TestRig.decibar(command, environment: ["DISPLAY": ":\(number)", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
            #expect(outcome.status == 1, "\(outcome)")
            #expect(outcome.error.split(separator: "\n").count == 1, "\(outcome)")
            #expect(outcome.error.contains("X display :\(number)"), "\(outcome)")
        }
    }

    @Test("an X server that dies under a running window: one line of ours, status 1, no recording left behind")
    func dyingXServer() throws {
        let server = try PrivatePulseServer()
        let screen = try PrivateDisplay(size: "640x480x24")
        let output = server.directory + "/rec.mp4"
        let running = try RunningCommand(["live", "--size", "320x200", "--record", output],
                                         environment: server.environment.merging(["DISPLAY": screen.display]) { $1 })
        // Killed once the window is up and the recording under way.
        #expect(TestRig.wait(timeout: 20) { running.standardError.contains("listening to") }, "\(running.standardError)")
        usleep(500_000)
        kill(screen.process.processIdentifier, SIGKILL)
        let status = running.waitForExit(timeout: 10)
        #expect(status == 1, "\(String(describing: status)): \(running.standardError)")
        let lines = running.standardError.split(separator: "\n").filter { !$0.contains("listening to") && !$0.contains("waiting for audio") }
        #expect(lines.count == 1 && lines.first?.hasPrefix("decibar: lost the connection to the display") == true, "\(running.standardError)")
        #expect(TestRig.partials(in: server.directory).isEmpty, "\(TestRig.partials(in: server.directory))")
    }

    @Test("levels onto a full device reports the write error; a closed pipe stays quiet")
    func standardOutputErrors() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.makeTone(at: folder + "/tone.wav", amplitude: 0.5, seconds: 2)
        let full = try TestRig.runBounded("sh", ["-c", "exec \(TestRig.decibar) levels --file \(folder)/tone.wav > /dev/full"])
        #expect(full.status == 1 && full.error == "decibar: cannot write to standard output: No space left on device\n", "\(full)")
        let closed = try TestRig.runBounded("sh", ["-c", "\(TestRig.decibar) levels --file \(folder)/tone.wav --rate 1000 | head -c 10 > /dev/null"])
        #expect(closed.status == 0 && closed.error.isEmpty, "\(closed)")
        let server = try PrivatePulseServer()
        let devices = try TestRig.runBounded("sh", ["-c", "exec \(TestRig.decibar) devices > /dev/full"], environment: server.environment)
        #expect(devices.status == 1 && devices.errorLines.count == 1 && devices.error.contains("No space left"), "\(devices)")
    }

    @Test("numbers that pass range checks but overflow a conversion: no crash", arguments: [
        (["levels", "--file", "TONE", "--duration", "1e300"], Int32(0)), (["levels", "--file", "TONE", "--rate", "1e-300"], Int32(2)),
        (["levels", "--file", "TONE", "--rate", "0.001"], Int32(0)),
        (["render", "TONE", "-o", "OUT/", "--duration", "1e300", "--size", "64x64", "--fps", "1"], Int32(0)),
    ])
    func hugeNumbers(arguments: [String], status: Int32) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.makeTone(at: folder + "/tone.wav", amplitude: 0.5, seconds: 1)
        let resolved = arguments.map { $0 == "TONE" ? folder + "/tone.wav" : $0 == "OUT/" ? folder + "/out/" : $0 }
        let outcome = try TestRig.decibar(resolved, environment: ["DISPLAY": ""])
        #expect(outcome.status == status && !outcome.signaled, "\(outcome)")
        if status != 0 { #expect(outcome.errorLines.count == 1, "\(outcome)") }
    }
}
