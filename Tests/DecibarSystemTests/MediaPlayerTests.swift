import DecibarCore
import Foundation
import Testing

/// The player as the desktop sees it: MPRIS on a private session bus with playerctl as the client,
/// and the transport (stop, volume, loop, the end of the list) from keys, ctl and MPRIS alike,
/// heard on a private server's null sink.
@Suite("Media keys, playerctl and the transport", .serialized,
       .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct MediaPlayerTests {
    /// Each test blocks for seconds at a time: on a thread of the suite's own, not the pool's.
    static let thread = DedicatedThreadExecutor(name: "media-player-tests")

    func onOwnThread(_ body: () throws -> Void) async throws {
        try await withTaskExecutorPreference(Self.thread) { try body() }
    }

    /// A server, a bus and a display of the test's own.
    final class Desk {
        let server: PrivatePulseServer
        let bus: PrivateSessionBus
        let screen: PrivateDisplay
        init() throws {
            server = try PrivatePulseServer()
            bus = try PrivateSessionBus()
            screen = try PrivateDisplay()
        }

        var environment: [String: String] {
            server.environment.merging(bus.environment) { $1 }.merging(["DISPLAY": screen.display]) { $1 }
        }

        func playerctl(_ arguments: String...) throws -> String {
            let result = try TestRig.run("playerctl", ["-p", "decibar"] + arguments, environment: environment)
            return String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .newlines)
        }

        func xdotool(_ arguments: [String]) throws {
            _ = try TestRig.run("xdotool", arguments, environment: ["DISPLAY": screen.display])
        }

        func window(of pid: Int32) throws -> String {
            var id = ""
            guard TestRig.wait(timeout: 20, until: {
                // The display is this test's own: the player's is the only window of its class.
                let found = try? TestRig.run("xdotool", ["search", "--classname", "^decibar$"], environment: ["DISPLAY": screen.display])
                id = found.map { String(decoding: $0.output, as: UTF8.self) }?.split(separator: "\n").first.map(String.init) ?? ""
                return !id.isEmpty
            }) else { throw RigError("the player window (pid \(pid)) did not appear on \(screen.display)") }
            return id
        }

        /// The RMS (dBFS, first channel) the monitor hears over a second.
        func heardRMS() throws -> Double {
            guard let last = try heardRMSLines().last else { throw RigError("levels printed nothing") }
            return last
        }

        /// The RMS (dBFS, first channel) of each of a second's five lines of levels.
        func heardRMSLines() throws -> [Double] {
            let result = try TestRig.run(TestRig.decibar, ["levels", "--standalone", "--rate", "5", "--duration", "1"], environment: environment)
            let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { LevelsLine(String($0)) }
            guard !lines.isEmpty else { throw RigError("levels printed nothing: \(result.error)") }
            return lines.map { $0.rmsDB[0] }
        }

        /// The frequency the monitor hears, from the zero crossings of half a second.
        func heardFrequency() throws -> Double {
            let path = server.directory + "/heard-\(UInt32.random(in: 0 ... .max)).raw"
            let recorder = try server.record(to: path)
            usleep(500_000)
            recorder.kill()
            recorder.waitForExit()
            let samples = try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let left = stride(from: 0, to: samples.count - 1, by: 2).map { samples[$0] }
            guard left.count > 4800, left.contains(where: { abs($0) > 0.1 }) else { throw RigError("nothing was heard") }
            var crossings = 0
            for index in 1 ..< left.count where (left[index - 1] < 0) != (left[index] < 0) { crossings += 1 }
            return Double(crossings) / 2 / (Double(left.count) / 48000)
        }

        /// Whether the server has a playback stream of Decibar's.
        func hasPlaybackStream() throws -> Bool {
            try server.pactl("list", "sink-inputs").contains("Decibar")
        }
    }

    /// 60 s whose frequency tells the time: 200 Hz + 20 Hz per second, at -6 dBFS, tagged; with
    /// `cover`, that picture embedded (FLAC's PICTURE block).
    static func makeChirp(in folder: String, cover: String? = nil) throws -> String {
        let path = folder + "/chirp.flac"
        var arguments = ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                         "aevalsrc=0.5*sin(2*PI*(200*t+10*t*t))|0.5*sin(2*PI*(200*t+10*t*t)):s=48000:d=60"]
        if let cover { arguments += ["-i", cover, "-map", "0", "-map", "1", "-c:v", "png", "-disposition:v", "attached_pic"] }
        arguments += ["-metadata", "title=Chirp & Co", "-metadata", "artist=Decibar Lab", "-metadata", "album=Signals", path]
        let made = try TestRig.run("ffmpeg", arguments)
        guard made.status == 0 else { throw RigError("ffmpeg failed: \(made.error)") }
        return path
    }

    /// A picture's pixels as ffmpeg decodes them (RGB24), and its size.
    static func pixels(of picture: String) throws -> (data: Data, size: String) {
        let probe = try TestRig.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                                "-of", "csv=p=0:s=x", picture])
        let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", picture, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        return (decoded.output, String(decoding: probe.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("the window opens every time on an X server that resets whenever its last client leaves, while other clients come and go")
    func opensOnResettingServer() async throws { try await onOwnThread { try runOpensOnResettingServer() } }

    private func runOpensOnResettingServer() throws {
        // PrivateDisplay's Xvfb runs without -noreset, as `xvfb-run` and `xinit` servers do: each time
        // its client count drops to zero it resets and, for that moment, refuses connections. The
        // shell loop below is such a client, connecting and leaving all the time.
        let desk = try Desk()
        let tone = desk.server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.1, seconds: 30)
        let churn = try RunningCommand(["-c", "while :; do xdotool getdisplaygeometry; done"], environment: desk.environment, tool: "sh")
        defer { churn.stop() }
        var failures: [String] = []
        for _ in 0 ..< 20 {
            let player = try RunningCommand(["play", tone, "--size", "160x90"], environment: desk.environment)
            defer { player.stop() }
            let shown = TestRig.wait(timeout: 10) {
                !player.isRunning || (try? TestRig.run("xdotool", ["search", "--classname", "^decibar$"],
                                                     environment: ["DISPLAY": desk.screen.display]))?.status == 0
            }
            if !shown || !player.isRunning { failures.append(player.standardError.split(separator: "\n").last.map(String.init) ?? "no window") }
            player.stop()
            _ = TestRig.wait(timeout: 5) { (try? TestRig.run("xdotool", ["search", "--classname", "^decibar$"],
                                                           environment: ["DISPLAY": desk.screen.display]))?.status != 0 }
        }
        #expect(failures.isEmpty, "\(failures.count) of 20 windows did not open: \(failures)")
        #expect(churn.isRunning)
    }

    @Test("playerctl: status, play-pause, metadata from tags, position 30 (heard at 30 s), next, stop; busctl lists every property")
    func playerctl() async throws { try await onOwnThread { try runPlayerctl() } }

    private func runPlayerctl() throws {
        let desk = try Desk()
        // The first track carries a 300x300 cover; the second has a folder picture beside it.
        let cover = desk.server.directory + "/drawn.png"
        let drawn = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=300x300:rate=1",
                                               "-frames:v", "1", cover])
        #expect(drawn.status == 0, "\(drawn.error)")
        let chirp = try Self.makeChirp(in: desk.server.directory, cover: cover)
        try FileManager.default.createDirectory(atPath: desk.server.directory + "/next", withIntermediateDirectories: false)
        let second = desk.server.directory + "/next/second.wav"
        try TestRig.makeTone(at: second, amplitude: 0.5, seconds: 20)
        let folderPicture = desk.server.directory + "/next/Folder.JPG"
        #expect(try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", cover, folderPicture]).status == 0)
        let player = try RunningCommand(["play", chirp, second, "--size", "320x180"],
                                        environment: desk.environment.merging(["XDG_CACHE_HOME": desk.server.directory + "/cache"]) { $1 })
        defer { player.stop() }
        #expect(TestRig.wait(timeout: 10) { (try? desk.playerctl("status")) == "Playing" }, "\(player.standardError)")
        #expect(try desk.playerctl("-l") == "decibar")
        #expect(try desk.playerctl("metadata", "title") == "Chirp & Co")
        #expect(try desk.playerctl("metadata", "artist") == "Decibar Lab")
        #expect(try desk.playerctl("metadata", "album") == "Signals")
        #expect(try desk.playerctl("metadata", "mpris:length") == "60000000")
        #expect(try desk.playerctl("metadata", "xesam:url") == "file://" + chirp)
        // The embedded cover, written once into the cache: the same 300x300 picture.
        let art = try desk.playerctl("metadata", "mpris:artUrl")
        #expect(art.hasPrefix("file://" + desk.server.directory + "/cache/decibar/covers/") && art.hasSuffix(".png"), "\(art)")
        let stored = try Self.pixels(of: String(art.dropFirst("file://".count)))
        let original = try Self.pixels(of: cover)
        #expect(stored.size == "300x300" && stored.data == original.data && !stored.data.isEmpty, "\(stored.size)")

        _ = try desk.playerctl("play-pause")
        #expect(TestRig.wait(timeout: 15) { (try? desk.playerctl("status")) == "Paused" })
        #expect(try desk.heardRMS() < -100)
        _ = try desk.playerctl("play-pause")
        #expect(TestRig.wait(timeout: 15) { (try? desk.playerctl("status")) == "Playing" })

        _ = try desk.playerctl("position", "30")
        usleep(300_000)
        // 30.3 to 30.8 s into the chirp: 806 to 816 Hz.
        let frequency = try desk.heardFrequency()
        #expect((795 ... 830).contains(frequency), "heard \(frequency) Hz")
        let position = Double(try desk.playerctl("position")) ?? 0
        #expect((30 ... 32).contains(position), "position \(position)")

        _ = try desk.playerctl("next")
        #expect(TestRig.wait(timeout: 15) { (try? desk.playerctl("metadata", "title")) == "second.wav" })
        #expect(try desk.playerctl("metadata", "mpris:artUrl") == "file://" + folderPicture)
        // Shuffle, written and read back over the bus (two files: the one playing stays first).
        #expect(try desk.playerctl("shuffle") == "Off")
        _ = try desk.playerctl("shuffle", "On")
        #expect(TestRig.wait(timeout: 5) { (try? desk.playerctl("shuffle")) == "On" })
        #expect(try desk.playerctl("metadata", "title") == "second.wav")
        _ = try desk.playerctl("shuffle", "Off")
        #expect(TestRig.wait(timeout: 5) { (try? desk.playerctl("shuffle")) == "Off" })
        // The next file's audio follows its metadata by the stream's latency (longer on a busy machine).
        var heard = 0.0
        #expect(TestRig.wait(timeout: 15) { heard = (try? desk.heardFrequency()) ?? 0; return abs(heard - 1000) < 10 }, "heard \(heard) Hz")

        let introspected = try TestRig.run("busctl", ["--user", "introspect", "org.mpris.MediaPlayer2.decibar", "/org/mpris/MediaPlayer2"],
                                           environment: desk.environment)
        let listing = String(decoding: introspected.output, as: UTF8.self)
        for name in ["Identity", "DesktopEntry", "CanQuit", "CanRaise", "HasTrackList", "SupportedUriSchemes", "SupportedMimeTypes",
                     "PlaybackStatus", "LoopStatus", "Shuffle", "Metadata", "Position", "Rate", "MinimumRate", "MaximumRate", "Volume",
                     "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek", "CanControl", "Seeked",
                     "Play", "Pause", "PlayPause", "Stop", "Next", "Previous", "Seek", "SetPosition", "OpenUri", "Raise", "Quit"] {
            #expect(listing.contains("." + name + " "), "\(name) is missing: \(listing)")
        }
        try checkTrackList(desk, count: 2, playing: 1)

        // Stop: the playhead is back at the start, and no stream is left on the server.
        _ = try desk.playerctl("stop")
        #expect(TestRig.wait(timeout: 15) { (try? desk.playerctl("status")) == "Stopped" })
        #expect(try desk.playerctl("position") == "0.000000")
        #expect(TestRig.wait(timeout: 15) { (try? desk.hasPlaybackStream()) == false })
        #expect(try desk.heardRMS() < -100)
        #expect(player.isRunning)
        _ = try TestRig.run("busctl", ["--user", "call", "org.mpris.MediaPlayer2.decibar", "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2", "Quit"],
                            environment: desk.environment)
        #expect(player.waitForExit(timeout: 10) == 0, "\(player.standardError)")
    }

    /// The TrackList interface of a player whose list has `count` tracks, `playing` the one open:
    /// introspected, read (HasTrackList, Tracks, GetTracksMetadata) and used (GoTo).
    private func checkTrackList(_ desk: Desk, count: Int, playing: Int) throws {
        func busctl(_ arguments: [String]) throws -> String {
            let result = try TestRig.run("busctl", ["--user"] + arguments, environment: desk.environment)
            #expect(result.status == 0, "busctl \(arguments): \(result.error)")
            return String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let name = "org.mpris.MediaPlayer2.decibar", path = "/org/mpris/MediaPlayer2", interface = "org.mpris.MediaPlayer2.TrackList"
        let listing = try busctl(["introspect", name, path, interface])
        for member in ["Tracks", "CanEditTracks", "GetTracksMetadata", "GoTo", "AddTrack", "RemoveTrack", "TrackListReplaced"] {
            #expect(listing.contains("." + member + " "), "\(member) is missing: \(listing)")
        }
        #expect(try busctl(["get-property", name, path, "org.mpris.MediaPlayer2", "HasTrackList"]) == "b true")
        let ids = (0 ..< count).map { "/org/decibar/track/\($0)" }
        let tracks = try busctl(["get-property", name, path, interface, "Tracks"])
        #expect(tracks == "ao \(count) " + ids.map { "\"\($0)\"" }.joined(separator: " "), "\(tracks)")
        // Each track by its file's name; unknown ids are left out.
        let metadata = try busctl(["--json=short", "call", name, path, interface, "GetTracksMetadata", "ao", "\(count + 1)"]
                                  + ids + ["/org/decibar/track/99"])
        #expect(metadata.components(separatedBy: "\"mpris:trackid\"").count == count + 1, "\(metadata)")
        #expect(metadata.contains("\"second.wav\""), "\(metadata)")
        // GoTo the first track: it plays.
        let first = (playing + 1) % count
        _ = try busctl(["call", name, path, interface, "GoTo", "o", ids[first]])
        // (playerctl prints an object path quoted.)
        #expect(TestRig.wait(timeout: 10) { (try? desk.playerctl("metadata", "mpris:trackid")) == "'\(ids[first])'" },
                "\(String(describing: try? desk.playerctl("metadata", "mpris:trackid")))")
        #expect(TestRig.wait(timeout: 10) { (try? desk.playerctl("status")) == "Playing" })
        // The list cannot be edited over the bus: one line says how.
        let refused = try TestRig.run("busctl", ["--user", "call", name, path, interface, "RemoveTrack", "o", ids[0]], environment: desk.environment)
        #expect(refused.status != 0 && refused.error.contains("ctl open"), "\(refused.error)")
    }

    /// How fast `position` moves, from two readings 2 s apart. Each reading is taken somewhere
    /// within its query (a process and a bus round trip, hundreds of milliseconds on a busy
    /// machine), so the speed lies between the position's move over the longest span the two
    /// could be apart and over the shortest.
    static func positionSpeed(_ position: () throws -> Double) rethrows -> (slowest: Double, fastest: Double, said: String) {
        let firstAsked = TestRig.now()
        let first = try position()
        let firstAnswered = TestRig.now()
        usleep(2_000_000)
        let secondAsked = TestRig.now()
        let second = try position()
        let secondAnswered = TestRig.now()
        let moved = second - first
        let slowest = moved / (secondAnswered - firstAsked), fastest = moved / (secondAsked - firstAnswered)
        return (slowest, fastest, "the position moved \(moved) s in \(secondAsked - firstAnswered)...\(secondAnswered - firstAsked) s: "
                + "\(slowest)...\(fastest) s a second")
    }

    @Test("keys and scrubber drags are seen by playerctl --follow; seeks signal Seeked; 9/0, l, ], backslash and x act as volume, loop, rate and stop; MPRIS Rate sets the rate and Position keeps file time")
    func keysAndDrags() async throws { try await onOwnThread { try runKeysAndDrags() } }

    private func runKeysAndDrags() throws {
        let desk = try Desk()
        let chirp = try Self.makeChirp(in: desk.server.directory)
        let player = try RunningCommand(["play", chirp, "--size", "640x360"], environment: desk.environment)
        defer { player.stop() }
        let id: String
        do { id = try desk.window(of: player.process.processIdentifier) } catch { throw RigError("\(error); the player said: \(player.standardError)") }
        #expect(TestRig.wait(timeout: 10) { (try? desk.playerctl("status")) == "Playing" })
        let follow = try RunningCommand(["-p", "decibar", "--follow", "status"], environment: desk.environment, tool: "playerctl")
        defer { follow.stop() }
        let seeks = try RunningCommand(["--session", "type='signal',member='Seeked'"], environment: desk.environment, tool: "dbus-monitor")
        defer { seeks.stop() }
        #expect(TestRig.wait(timeout: 15) { follow.output.map(\.text) == ["Playing"] })
        func key(_ name: String) throws { try desk.xdotool(["windowfocus", "--sync", id, "key", name]) }

        try key("space")
        #expect(TestRig.wait(timeout: 15) { follow.output.map(\.text) == ["Playing", "Paused"] }, "\(follow.output.map(\.text))")
        try key("space")
        #expect(TestRig.wait(timeout: 15) { follow.output.map(\.text) == ["Playing", "Paused", "Playing"] })

        // A drag on the scrubber is heard while held (it stays Playing) and plays from the drop: the
        // grains under the pointer are no jumps to the desktop, the drop is one.
        let layout = PlayLayout(width: 640, height: 360)
        let y = layout.scrubberTop + layout.scrubberHeight / 2
        try desk.xdotool(["mousemove", "--window", id, "\(layout.scrubberLeft + layout.scrubberWidth / 5)", "\(y)", "mousedown", "1"])
        for step in 1 ... 6 {
            usleep(60_000)
            try desk.xdotool(["mousemove", "--window", id, "\(layout.scrubberLeft + layout.scrubberWidth * (4 + step) / 20)", "\(y)"])
        }
        try desk.xdotool(["mouseup", "1"])
        #expect(TestRig.wait(timeout: 15) { seeks.output.contains { $0.text.contains("member=Seeked") } })
        usleep(500_000)
        #expect(seeks.output.filter { $0.text.contains("member=Seeked") }.count == 1, "\(seeks.output.map(\.text))")
        #expect(follow.output.map(\.text) == ["Playing", "Paused", "Playing"], "\(follow.output.map(\.text))")
        // Half-way through the chirp: about 30 s, 800 Hz.
        let position = Double(try desk.playerctl("position")) ?? 0
        #expect((29 ... 33).contains(position), "position \(position)")

        // Volume: 9 twice is 90 %, 2.75 dB down; 0 once is 95 %.
        let full = try desk.heardRMS()
        try key("9")
        try key("9")
        #expect(TestRig.wait(timeout: 15) { (try? desk.playerctl("volume")) == "0.900000" })
        usleep(200_000)
        #expect(abs(try desk.heardRMS() - full - PlayerVolume.decibels(90)) < 0.15)
        try key("0")
        #expect(TestRig.wait(timeout: 15) { (try? desk.playerctl("volume")) == "0.950000" })
        // And from MPRIS: 50 % is 18.06 dB down.
        _ = try desk.playerctl("volume", "0.5")
        usleep(300_000)
        #expect(abs(try desk.heardRMS() - full - PlayerVolume.decibels(50)) < 0.2)

        try key("l")
        #expect(TestRig.wait(timeout: 15) { (try? desk.playerctl("loop")) == "Track" })
        try key("l")
        #expect(TestRig.wait(timeout: 15) { (try? desk.playerctl("loop")) == "Playlist" })
        _ = try desk.playerctl("loop", "None")
        #expect(TestRig.wait(timeout: 15) { (try? desk.playerctl("loop")) == "None" })

        // Rate: ] steps it up by 0.25, \\ resets it, MPRIS Rate sets it (0.25 ... 4, clamped).
        func rate() -> String {
            (try? TestRig.run("busctl", ["--user", "get-property", "org.mpris.MediaPlayer2.decibar", "/org/mpris/MediaPlayer2",
                                         "org.mpris.MediaPlayer2.Player", "Rate"], environment: desk.environment))
                .map { String(decoding: $0.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        }
        #expect(rate() == "d 1")
        try key("bracketright")
        #expect(TestRig.wait(timeout: 15) { rate() == "d 1.25" }, "\(rate())")
        try key("backslash")
        #expect(TestRig.wait(timeout: 15) { rate() == "d 1" }, "\(rate())")
        let setRate = try TestRig.run("busctl", ["--user", "set-property", "org.mpris.MediaPlayer2.decibar", "/org/mpris/MediaPlayer2",
                                                 "org.mpris.MediaPlayer2.Player", "Rate", "d", "2"], environment: desk.environment)
        #expect(setRate.status == 0, "\(setRate.error)")
        #expect(TestRig.wait(timeout: 15) { rate() == "d 2" }, "\(rate())")
        // The position MPRIS gives stays in the file's time: at rate 2 it moves 2 s a second.
        let speed = try Self.positionSpeed { Double(try desk.playerctl("position")) ?? 0 }
        #expect(speed.slowest < 2 + 0.1 && speed.fastest > 2 - 0.1, "\(speed.said)")
        try key("backslash")
        #expect(TestRig.wait(timeout: 15) { rate() == "d 1" }, "\(rate())")

        try key("x")
        #expect(TestRig.wait(timeout: 15) { follow.output.map(\.text).suffix(1) == ["Stopped"] })
        #expect(try desk.playerctl("position") == "0.000000")
        #expect(TestRig.wait(timeout: 15) { (try? desk.hasPlaybackStream()) == false })
        #expect(player.isRunning)
    }

    @Test("at the end of the list the window stays on the last track, stopped; --exit-at-end exits; --loop track plays it again")
    func endOfList() async throws { try await onOwnThread { try runEndOfList() } }

    private func runEndOfList() throws {
        let desk = try Desk()
        // A long track sought close to its end: the end comes 2 s after the seek however slowly the player started.
        let chirp = try Self.makeChirp(in: desk.server.directory)
        let stays = try RunningCommand(["play", chirp, "--size", "320x180"], environment: desk.environment)
        defer { stays.stop() }
        #expect(TestRig.wait(timeout: 20) { (try? desk.playerctl("status")) == "Playing" }, "\(stays.standardError)")
        _ = try desk.playerctl("position", "58")
        #expect(TestRig.wait(timeout: 15) { (try? desk.playerctl("status")) == "Stopped" })
        #expect(try desk.playerctl("metadata", "title") == "Chirp & Co")
        usleep(500_000)
        #expect(stays.isRunning)
        // Play again from the start.
        _ = try desk.playerctl("play")
        #expect(TestRig.wait(timeout: 15) { (try? desk.playerctl("status")) == "Playing" })
        let position = Double(try desk.playerctl("position")) ?? -1
        #expect((0 ... 10).contains(position), "position \(position)")
        stays.stop()

        let short = desk.server.directory + "/short.wav"
        try TestRig.makeTone(at: short, amplitude: 0.5, seconds: 1)
        let exits = try RunningCommand(["play", short, "--size", "320x180", "--exit-at-end"], environment: desk.environment)
        #expect(exits.waitForExit(timeout: 30) == 0, "\(exits.standardError)")

        let loops = try RunningCommand(["play", short, "--size", "320x180", "--loop", "track"], environment: desk.environment)
        defer { loops.stop() }
        #expect(TestRig.wait(timeout: 20) { (try? desk.playerctl("status")) == "Playing" })
        #expect(try desk.playerctl("loop") == "Track")
        // Two and a half times the track's length: still playing, and heard (the loop's decisions
        // are PlaySessionTests' and TransportTests').
        usleep(2_500_000)
        #expect(try desk.playerctl("status") == "Playing")
        // The loudest of a second's lines: the replay starts once the track has been heard to its end,
        // so each turn leaves a short silence (17 ms here, more under a sanitizer) a line can fall on.
        let heard = try desk.heardRMSLines()
        #expect(abs((heard.max() ?? -200) - -9.03) < 0.5, "the monitor read \(heard) dB RMS (a second of levels)")
    }

    @Test("the daemon's player: ctl set volume, rate, pitch and loop, ctl stop writes nothing, MPRIS Raise shows the window, its keys step rate and pitch")
    func daemon() async throws {
        try await onOwnThread { try runDaemon() }
    }

    private func runDaemon() throws {
        do {
            let bus = try PrivateSessionBus()
            let screen = try PrivateDisplay()
            let rig = try DaemonRig(arguments: ["--size", "320x180"], environment: bus.environment.merging(["DISPLAY": screen.display]) { $1 })
            func playerctl(_ arguments: String...) -> String {
                (try? TestRig.run("playerctl", ["-p", "decibar"] + arguments, environment: rig.environment))
                    .map { String(decoding: $0.output, as: UTF8.self).trimmingCharacters(in: .newlines) } ?? ""
            }
            let tone = rig.server.directory + "/tone.wav"
            try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 30)
            let replaced = try RunningCommand(["--session", "type='signal',member='TrackListReplaced'"], environment: rig.environment,
                                              tool: "dbus-monitor")
            defer { replaced.stop() }
            #expect(try rig.ctl("open", tone).status == 0)
            #expect(TestRig.wait(timeout: 15) { playerctl("status") == "Playing" })
            // A file added to the list: TrackListReplaced names both tracks, the first playing.
            #expect(try rig.ctl("open", "--append", tone).status == 0)
            #expect(TestRig.wait(timeout: 10) {
                replaced.output.map(\.text).joined(separator: "\n").contains("object path \"/org/decibar/track/1\"")
            }, "\(replaced.output.map(\.text))")
            let full = try rig.heardRMS()
            #expect(try rig.ctl("set", "volume", "50").status == 0)
            #expect(TestRig.wait(timeout: 15) { playerctl("volume") == "0.500000" })
            usleep(200_000)
            #expect(abs(try rig.heardRMS() - full - PlayerVolume.decibels(50)) < 0.2)
            #expect(try rig.player("volume") == .number(50))
            // Rate and pitch: ctl set, the status, and the position moving at the rate.
            #expect(try rig.ctl("set", "rate", "1.25").status == 0)
            #expect(try rig.ctl("set", "pitch", "200").status == 0)
            #expect(try rig.player("rate") == .number(1.25))
            #expect(try rig.player("pitch") == .number(200))
            let speed = try Self.positionSpeed { try rig.player("position")?.number ?? 0 }
            #expect(speed.slowest < 1.25 + 0.08 && speed.fastest > 1.25 - 0.08, "\(speed.said)")
            let refused = try rig.ctl("set", "rate", "9")
            #expect(refused.status != 0 && refused.error.contains("rate"), "\(refused.error)")
            #expect(try rig.ctl("set", "rate", "1").status == 0)
            #expect(try rig.ctl("set", "pitch", "0").status == 0)
            #expect(try rig.ctl("set", "loop", "track").status == 0)
            #expect(TestRig.wait(timeout: 15) { playerctl("loop") == "Track" })
            #expect(try rig.ctl("stop").status == 0)
            #expect(try rig.player("state") == .string("stopped"))
            #expect(try rig.player("position") == .number(0))
            #expect(playerctl("status") == "Stopped")
            #expect(TestRig.wait(timeout: 15) { (try? rig.server.pactl("list", "sink-inputs").contains("Decibar")) == false })
            #expect(try rig.status()["window"] == .string("hidden"))
            let raised = try TestRig.run("busctl", ["--user", "call", "org.mpris.MediaPlayer2.decibar", "/org/mpris/MediaPlayer2",
                                                    "org.mpris.MediaPlayer2", "Raise"], environment: rig.environment)
            #expect(raised.status == 0, "\(raised.error)")
            // The first show makes the window and compiles its shaders: seconds on a busy machine.
            #expect(TestRig.wait(timeout: 30) { (try? rig.status()["window"]) == .string("shown") }, "\(rig.daemon?.standardError ?? "")")
            // Play from the stopped track.
            _ = playerctl("play")
            #expect(TestRig.wait(timeout: 15) { playerctl("status") == "Playing" })
            // The window's keys: } and { step the pitch by 100 cents, ] the rate by 0.25, \\ resets both.
            let found = try TestRig.run("xdotool", ["search", "--sync", "--classname", "^decibar$"], environment: ["DISPLAY": screen.display])
            let id = String(decoding: found.output, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            func key(_ name: String) throws {
                _ = try TestRig.run("xdotool", ["windowfocus", "--sync", id, "key", name], environment: ["DISPLAY": screen.display])
            }
            try key("braceright")
            try key("braceright")
            try key("braceleft")
            try key("bracketright")
            #expect(TestRig.wait(timeout: 15) { (try? rig.player("pitch")) == .number(100) && (try? rig.player("rate")) == .number(1.25) },
                    "pitch \(String(describing: try? rig.player("pitch"))), rate \(String(describing: try? rig.player("rate")))")
            let shot = rig.server.directory + "/rate.png"
            #expect(try rig.ctl("screenshot", shot).status == 0)
            try key("backslash")
            #expect(TestRig.wait(timeout: 15) { (try? rig.player("pitch")) == .number(0) && (try? rig.player("rate")) == .number(1) })
        }
    }

    @Test("lyrics: a .lrc beside the file shows its current line in the daemon's player (read by OCR), and xesam:asText gives them")
    func lyrics() async throws { try await onOwnThread { try runLyrics() } }

    private func runLyrics() throws {
        let bus = try PrivateSessionBus()
        let screen = try PrivateDisplay()
        let rig = try DaemonRig(arguments: ["--window", "shown", "--size", "960x540"],
                                environment: bus.environment.merging(["DISPLAY": screen.display]) { $1 })
        func playerctl(_ arguments: String...) -> String {
            (try? TestRig.run("playerctl", ["-p", "decibar"] + arguments, environment: rig.environment))
                .map { String(decoding: $0.output, as: UTF8.self).trimmingCharacters(in: .newlines) } ?? ""
        }
        // Quiet, so the bars stay low under the line.
        let song = rig.server.directory + "/song.wav"
        try TestRig.makeTone(at: song, amplitude: 0.05, seconds: 40)
        let lines = ["Morning light on the water", "Every river finds the sea"]
        try "[ti:Song]\n[00:00.00]\(lines[0])\n[00:20.00]\(lines[1])\n".write(toFile: rig.server.directory + "/song.lrc", atomically: true,
                                                                              encoding: .utf8)
        #expect(try rig.ctl("open", song).status == 0)
        #expect(TestRig.wait(timeout: 15) { playerctl("status") == "Playing" })
        #expect(playerctl("metadata", "xesam:asText") == lines.joined(separator: "\n"))
        #expect(TestRig.wait(timeout: 30) { (try? rig.status()["window"]) == .string("shown") }, "\(rig.daemon?.standardError ?? "")")

        // The line whose time the playhead is in, and only that one.
        for (index, seek) in [(0, "2"), (1, "22"), (0, "5")] {
            #expect(try rig.ctl("seek", seek).status == 0)
            usleep(1_000_000)
            let shot = rig.server.directory + "/lyrics-\(seek).png"
            let taken = try VideoTests.screenshot(rig, to: shot, width: 960, height: 540)
            let read = try TextReader.text(in: shot)
            #expect(read.contains(lines[index].lowercased()), "at \(taken.playhead) s: read \"\(read)\"")
            #expect(!read.contains(lines[1 - index].lowercased()), "at \(taken.playhead) s: read \"\(read)\"")
        }
        withExtendedLifetime(screen) {}
    }

    @Test("without a session bus the file plays, and play says nothing about media keys (one line: what plays)")
    func noSessionBus() async throws { try await onOwnThread { try runNoSessionBus() } }

    private func runNoSessionBus() throws {
        let server = try PrivatePulseServer()
        let screen = try PrivateDisplay()
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 0.5)
        let outcome = try TestRig.decibar(["play", tone, "--size", "160x100", "--exit-at-end"],
                                          environment: server.environment.merging(["DISPLAY": screen.display,
                                                                                   "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]) { $1 },
                                          timeout: 20)
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.error.split(separator: "\n")
        #expect(!outcome.error.contains("MPRIS") && !outcome.error.contains("session bus"), "\(outcome.error)")
        #expect(lines == ["decibar: playing \(tone)"], "\(outcome.error)")
    }
}
