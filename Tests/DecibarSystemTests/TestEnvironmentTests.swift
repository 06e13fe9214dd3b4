import Foundation
import Testing

/// In the test environment (`make test`, CI), every real part the suites use must be present: a
/// missing one is a failure here, named, rather than suites that quietly test nothing.
@Suite("The test environment", .enabled(if: TestRig.inTestEnvironment, "only inside Scripts/with-test-env.sh"))
struct TestEnvironmentTests {
    @Test("every program the tests start is installed", arguments: [
        "ffmpeg", "ffprobe", "sox", "pactl", "parec", "paplay", "pulseaudio", "Xvfb", "xdotool", "unshare", "sha256sum",
    ])
    func program(name: String) throws {
        let found = try TestRig.run("sh", ["-c", "command -v \(name)"])
        #expect(found.status == 0, "\(name) is missing")
    }

    @Test("the display answers, and so does the sound server")
    func servers() throws {
        #expect(TestRig.hasDisplay, "DISPLAY is not set")
        let display = try TestRig.run("xdotool", ["getdisplaygeometry"])
        #expect(display.status == 0, "the X display does not answer: \(display.error)")
        let sound = try TestRig.run("pactl", ["info"])
        #expect(sound.status == 0, "the sound server does not answer: \(sound.error)")
    }

    @Test("a private PulseAudio, started and stopped by the project's scripts, leaves nothing in TMPDIR")
    func privateServerLeavesNothing() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scratch = folder + "/tmp"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        // As `make run` and the test environment itself start it: no runtime folder of the user's.
        let started = try TestRig.run("env", ["-u", "XDG_RUNTIME_DIR", "-u", "PULSE_RUNTIME_PATH", TestRig.packageRoot + "/Scripts/pulse-start.sh",
                                              folder + "/pa"], environment: ["TMPDIR": scratch])
        #expect(started.status == 0, "\(started.error)")
        let sinks = try TestRig.run("pactl", ["list", "short", "sinks"], environment: ["PULSE_SERVER": "unix:\(folder)/pa/pulse.sock"])
        _ = try TestRig.run(TestRig.packageRoot + "/Scripts/pulse-stop.sh", [folder + "/pa"], environment: ["TMPDIR": scratch])
        #expect(String(decoding: sinks.output, as: UTF8.self).contains("\tviz\t"), "\(sinks.error)")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch)
        #expect(left.isEmpty, "left in TMPDIR: \(left)")
    }

    @Test("a program a test starts, from any thread, begins with no signal blocked (so SIGTERM stops a server)")
    func cleanSignalMask() async throws {
        // From the concurrency pool, whose threads block every asynchronous signal.
        let status = try await Task.detached { try TestRig.run("grep", ["^SigBlk", "/proc/self/status"]) }.value
        let line = String(decoding: status.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line == "SigBlk:\t0000000000000000", "the child starts with blocked signals: \(line)")
    }
}
