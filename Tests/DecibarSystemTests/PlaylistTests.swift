import DecibarAudio
import Foundation
import Testing

/// A playlist with broken files in it, played for real into a private server's null sink.
@Suite("Playlist with broken files", .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct PlaylistTests {
    func ffmpeg(_ arguments: [String]) throws {
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + arguments)
        #expect(made.status == 0, "\(made.error)")
    }

    @Test("an empty file, a truncated FLAC and random bytes named .mp3 each give one line; the good files still play")
    func brokenFilesAreSkipped() throws {
        let server = try PrivatePulseServer()
        let folder = server.directory
        let first = folder + "/first.wav"
        let last = folder + "/last.flac"
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1", "-ac", "2", first])
        try ffmpeg(["-f", "lavfi", "-i", "aevalsrc=0.3*sin(2*PI*(300+200*t)*t)|0.2*sin(2*PI*700*t):s=48000:d=1.5", last])
        let empty = folder + "/empty.flac"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        // Cut inside the metadata: nothing of it can be played.
        let truncated = folder + "/truncated.flac"
        _ = FileManager.default.createFile(atPath: truncated, contents: try Data(contentsOf: URL(fileURLWithPath: last)).prefix(100))
        let noise = folder + "/noise.mp3"
        _ = FileManager.default.createFile(atPath: noise, contents: Data(pseudoRandomBytes(count: 64_000, seed: 11)))

        let recording = folder + "/recorded.raw"
        let recorder = try server.record(to: recording)
        defer { recorder.kill() }

        let player = try RunningCommand(["play", empty, first, truncated, noise, last, "--size", "480x270", "--exit-at-end"],
                                        environment: server.environment)
        // The list ends by itself after the two good files (2.5 s of audio).
        let status = player.waitForExit(timeout: 30)
        usleep(300_000)
        recorder.kill()
        let errors = player.standardError.split(separator: "\n").map { line in
            line.hasPrefix("decibar: ") ? String(line.dropFirst("decibar: ".count)) : String(line)
        }
        #expect(status == 0, "\(errors)")

        // One line for each broken file, naming it; nothing else but the "playing" lines.
        for broken in [empty, truncated, noise] {
            let lines = errors.filter { $0.hasPrefix(broken + ": ") }
            #expect(lines.count == 1, "\(broken): \(errors)")
        }
        #expect(errors.filter { $0.hasPrefix("playing ") } == ["playing \(first)", "playing \(last)"], "\(errors)")
        #expect(errors.count == 5, "\(errors)")

        // And the last file, after all the broken ones, was really heard: its decoded samples are in the recording.
        let decoder = try AudioFileDecoder(path: last)
        var decoded: [Float] = []
        while try decoder.read({ decoded.append(contentsOf: $0) }) {}
        let recorded = try Data(contentsOf: URL(fileURLWithPath: recording)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let needle = decoded[48000 * 2 ..< 48000 * 2 + 960]
        var found = false
        var index = 0
        while !found && index + needle.count <= recorded.count {
            found = zip(recorded[index ..< index + needle.count], needle).allSatisfy { abs($0 - $1) < 1e-6 }
            index += 2
        }
        #expect(found, "the file after the broken ones was not played")
    }
}
