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

    @Test("a program a test starts, from any thread, begins with no signal blocked (so SIGTERM stops a server)")
    func cleanSignalMask() async throws {
        // From the concurrency pool, whose threads block every asynchronous signal.
        let status = try await Task.detached { try TestRig.run("grep", ["^SigBlk", "/proc/self/status"]) }.value
        let line = String(decoding: status.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line == "SigBlk:\t0000000000000000", "the child starts with blocked signals: \(line)")
    }
}
