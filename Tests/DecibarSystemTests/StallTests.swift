import Foundation
import Testing

/// A sound server that stalls, a file far longer than what is asked of it, a very high rate.
@Suite("Stalls, long files and high rates")
struct StallTests {
    /// The server's PID, from the pid file the start script writes.
    func pid(of server: PrivatePulseServer) throws -> pid_t {
        let text = try String(contentsOfFile: server.directory + "/pulse.pid", encoding: .utf8)
        return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("levels: t never goes back when the server stalls and then hands over its backlog")
    func timeAfterStall() throws {
        let server = try PrivatePulseServer()
        let music = server.directory + "/tone.wav"
        try TestRig.makeTone(at: music, amplitude: 0.5, seconds: 20)
        let player = try server.play(music)
        defer { player.kill() }
        let levels = try RunningCommand(["levels", "--rate", "30"], environment: server.environment)
        defer { levels.stop() }
        _ = levels.firstLine(timeout: 5) { _ in true }
        usleep(500_000)
        let serverPID = try pid(of: server)
        for _ in 0 ..< 2 {
            kill(serverPID, SIGSTOP)
            usleep(700_000)
            kill(serverPID, SIGCONT)
            usleep(800_000)
        }
        let times = levels.output.compactMap { LevelsLine($0.text)?.time }
        #expect(times.count > 40)
        let backwards = zip(times, times.dropFirst()).filter { $1 < $0 }
        #expect(backwards.isEmpty, "t went back: \(backwards.prefix(5))")
    }

    @Test("render --duration 1 of a long file analyzes only what it renders")
    func shortRenderOfLongFile() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let long = folder + "/long.flac"
        let short = folder + "/short.flac"
        try TestRig.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=330:sample_rate=48000:duration=2400", "-ac", "2", long])
        try TestRig.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=330:sample_rate=48000:duration=2", "-ac", "2", short])
        let cache = folder + "/cache"
        let environment = ["DISPLAY": "", "XDG_CACHE_HOME": cache]
        let render = { (input: String, name: String) in
            try TestRig.decibar(["render", input, "-o", folder + "/" + name, "--duration", "1", "--size", "160x90"], environment: environment)
        }
        let clip = try render(long, "clip.mp4")
        #expect(clip.status == 0 && clip.error.contains("rendered 30 frames"), "\(clip)")
        // The whole file's overview was never computed (a whole render would have cached it) ...
        let cached = ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/decibar")) ?? []).filter { $0.hasSuffix(".dat") }
        #expect(cached.isEmpty, "an overview of the whole file was made: \(cached)")
        // ... and the clip took no longer than the same clip of a 2 s file, give or take half of
        // what analyzing the whole long file takes (a render's own start-up is the same in both).
        let brief = try render(short, "brief.mp4")
        #expect(brief.status == 0)
        let whole = try TestRig.decibar(["peaks", long, "-o", folder + "/whole.dat"])
        #expect(whole.status == 0)
        #expect(clip.seconds - brief.seconds < 0.5 * whole.seconds,
                "clip of the long file \(clip.seconds) s, of a short one \(brief.seconds) s; whole-file analysis \(whole.seconds) s")
    }

    @Test("the live window at 192 kHz loses no buffer when the server stalls and catches up")
    func highRateBacklog() throws {
        let server = try PrivatePulseServer()
        try server.pactl("load-module", "module-null-sink", "sink_name=high", "rate=192000", "channels=2", "format=float32le", "norewinds=1")
        try server.pactl("set-default-sink", "high")
        let music = server.directory + "/high.wav"
        try TestRig.makeTone(at: music, amplitude: 0.5, seconds: 20, sampleRate: 192_000)
        let player = try server.play(music, sink: "high")
        defer { player.kill() }
        let window = try RunningCommand(["live", "--size", "320x200", "--exit-after", "4"], environment: server.environment)
        usleep(1_500_000)
        let serverPID = try pid(of: server)
        kill(serverPID, SIGSTOP)
        usleep(400_000)
        kill(serverPID, SIGCONT)
        let status = window.waitForExit(timeout: 15)
        #expect(status == 0, "\(window.standardError)")
        #expect(!window.standardError.contains("dropped"), "\(window.standardError)")
    }
}
