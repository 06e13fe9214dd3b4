import DecibarApp
import DecibarAudio
import DecibarCore
import Foundation
import Synchronization
import Testing

/// Video files: the picture is read back from screenshots and renders. The test video carries its
/// frame number as ten black-or-white cells across its top half (bit 0 on the left), and a click at
/// every whole second of its audio, so what is shown can be checked against what is heard.
@Suite("Video pictures, in sync with the audio", .serialized,
       .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct VideoTests {
    static let fps = 25.0
    static let pictureWidth = 320, pictureHeight = 240

    /// A `seconds` long 320x240 H.264 video at 25 fps with a keyframe every 2 s, its frame number
    /// burnt in, and clicks at 0, 1, 2... s; `extra` arguments go before the output (a container flag).
    static func makeCounterVideo(at path: String, seconds: Int = 20, extra: [String] = []) throws {
        let picture = "nullsrc=size=\(pictureWidth)x\(pictureHeight):rate=\(Int(fps)):duration=\(seconds),"
            + "geq=lum='if(lt(Y,120),255*mod(floor(N/pow(2,floor(X/32))),2),128)':cb=128:cr=128"
        let clicks = "aevalsrc='if(lt(mod(t,1),0.003),0.8,0)':s=48000:d=\(seconds)"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", picture, "-f", "lavfi", "-i", clicks,
                                              "-c:v", "libx264", "-preset", "ultrafast", "-crf", "12", "-g", "50", "-pix_fmt", "yuv420p",
                                              "-c:a", "aac", "-b:a", "128k"] + extra + [path])
        guard made.status == 0 else { throw RigError("ffmpeg could not make the test video: \(made.error)") }
    }

    /// The frame number burnt into the picture drawn at `rect` of `frame`; nil if the cells are
    /// not clearly black or white, or the gray half is missing (no picture there).
    static func counter(in frame: RenderTests.Frame, rect: PixelRect) -> Int? {
        func luma(_ x: Double, _ y: Double) -> Int {
            let px = rect.x + Int(x * Double(rect.width) / Double(pictureWidth))
            let py = rect.y + Int(y * Double(rect.height) / Double(pictureHeight))
            let (r, g, b) = frame.pixel(x: px, y: py)
            return (Int(r) + Int(g) + Int(b)) / 3
        }
        guard abs(luma(160, 180) - 128) < 24 else { return nil }
        var value = 0
        for bit in 0 ..< 10 {
            let level = luma(Double(bit * 32 + 16), 60)
            if level > 200 { value |= 1 << bit } else if level > 55 { return nil }
        }
        return value
    }

    /// The picture's rectangle in a `width`×`height` player window.
    static func pictureRect(_ layout: VideoLayout, width: Int, height: Int) -> PixelRect {
        let play = PlayLayout(width: width, height: height)
        return PictureLayout(layout, aspectRatio: Double(pictureWidth) / Double(pictureHeight), width: width,
                             areaHeight: play.barsHeight).picture!
    }

    /// Asks the daemon for a screenshot; returns it with when it was drawn and the playhead then.
    static func screenshot(_ rig: DaemonRig, to path: String, width: Int, height: Int) throws -> (frame: RenderTests.Frame, drawnAt: Double, playhead: Double) {
        let reply = try rig.connect().request(["screenshot", path])
        guard case .object(let data)? = reply.data, case .number(let drawnAt)? = data["drawn_at"],
              case .number(let playhead)? = data["playhead"] else { throw RigError("screenshot: \(reply.error)") }
        return (try RenderTests.Frame(png: path, width: width, height: height), drawnAt, playhead)
    }

    static let windowWidth = 640, windowHeight = 480

    /// A daemon of the test's own with its window shown on an X server of its own, the picture in
    /// a panel above the bars (where no bar covers the burnt-in counter).
    static func daemonWithWindow(environment: [String: String] = [:]) throws -> (PrivateDisplay, DaemonRig) {
        let screen = try PrivateDisplay()
        let rig = try DaemonRig(arguments: ["--window", "shown", "--size", "\(windowWidth)x\(windowHeight)", "--video-layout", "above"],
                                environment: environment.merging(["DISPLAY": screen.display]) { $1 })
        return (screen, rig)
    }

    @Test("screenshots taken while the monitor records show the frame whose time is heard, within one frame period")
    func pictureFollowsHeardAudio() async throws {
        let (screen, rig) = try Self.daemonWithWindow()
        defer { withExtendedLifetime(screen) {} }
        let width = Self.windowWidth, height = Self.windowHeight
        let video = rig.server.directory + "/counter.mp4"
        try Self.makeCounterVideo(at: video)

        // Every click heard, with when (CLOCK_MONOTONIC) it reached the monitor.
        let tap = try PulseMonitorTap(target: .named("viz.monitor"), fragmentDuration: 256 / 48000, server: rig.server.serverAddress)
        tap.start()
        defer { tap.stop() }
        let clicks = Mutex<[Double]>([])
        let reader = Task {
            var lastLoud = -Double.infinity
            for await buffer in tap.buffers {
                buffer.withSamples { samples in
                    for frame in 0 ..< buffer.frameCount where abs(samples[frame * buffer.channelCount]) > 0.3 {
                        let time = buffer.captureTime - Double(buffer.frameCount - 1 - frame) / 48000
                        if time - lastLoud > 0.5 { clicks.withLock { $0.append(time) } }
                        lastLoud = time
                    }
                }
            }
        }
        defer { reader.cancel() }
        usleep(300_000)
        #expect(try rig.ctl("open", video).status == 0)
        #expect(TestRig.wait(timeout: 10) { clicks.withLock { $0.count } >= 2 }, "no clicks heard")

        let rect = Self.pictureRect(.above, width: width, height: height)
        var errors: [Double] = []
        for shot in 0 ..< 12 {
            let taken = try Self.screenshot(rig, to: rig.server.directory + "/shot-\(shot).png", width: width, height: height)
            usleep(150_000)
            let heard = clicks.withLock { $0 }
            guard let click = heard.last(where: { $0 <= taken.drawnAt }) else { continue }
            // Which second the click marks: named by the playhead (rounding forgives ±0.5 s), timed by the monitor.
            let second = (taken.playhead - (taken.drawnAt - click)).rounded()
            let heardTime = second + (taken.drawnAt - click)
            let number = try #require(Self.counter(in: taken.frame, rect: rect), "screenshot \(shot) shows no readable picture")
            // The frame shows for a period: its middle should be within one period of what is heard.
            errors.append(heardTime - (Double(number) + 0.5) / Self.fps)
            usleep(UInt32.random(in: 100_000 ... 400_000))
        }
        #expect(errors.count >= 10, "only \(errors.count) screenshots could be placed against a click")
        let worst = errors.map(abs).max() ?? 1
        print("picture against heard audio (heard - frame middle, ms): \(errors.map { Int(($0 * 1000).rounded()) }), worst \(Int(worst * 1000)) ms")
        // Under a sanitizer decoding runs several times slower: the picture must still be shown, late.
        let goal = ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] == nil ? 1 / Self.fps : 0.5
        #expect(worst <= goal, "a frame was shown up to \(worst * 1000) ms away from its time: \(errors)")
        guard case .object(let status)? = try rig.player("video"), case .number(let shown)? = status["shown"],
              case .number(let dropped)? = status["dropped"] else { throw RigError("no video in the status") }
        #expect(shown > 100, "\(shown) frames shown")
        print("frames shown \(Int(shown)), dropped \(Int(dropped))")
    }

    @Test("a drag to 40 % shows a frame from the keyframe before it while held, and the exact frame at the target on release")
    func dragShowsTargetFrame() throws {
        let (screen, rig) = try Self.daemonWithWindow()
        defer { withExtendedLifetime(screen) {} }
        let width = Self.windowWidth, height = Self.windowHeight
        let video = rig.server.directory + "/counter.mp4"
        try Self.makeCounterVideo(at: video)
        #expect(try rig.ctl("open", video).status == 0)
        #expect(TestRig.wait(timeout: 10) {
            if case .number(let seconds)? = try? rig.player("duration") { return abs(seconds - 20) < 0.05 }
            return false
        }, "the overview did not give the length")
        #expect(try rig.ctl("pause").status == 0)

        func xdotool(_ arguments: [String]) throws -> String {
            String(decoding: try TestRig.run("xdotool", arguments, environment: ["DISPLAY": screen.display]).output, as: UTF8.self)
        }
        let pid = rig.daemon!.process.processIdentifier
        var id = ""
        #expect(TestRig.wait(timeout: 10) {
            id = (try? xdotool(["search", "--pid", "\(pid)", "--classname", "^decibar$"]))?.split(separator: "\n").first.map(String.init) ?? ""
            return !id.isEmpty
        }, "the window did not appear")
        let layout = PlayLayout(width: width, height: height)
        let geometry = layout.scrubberGeometry(duration: 20)
        let y = layout.scrubberTop + layout.scrubberHeight / 2
        let target = 8.0
        let x = Int(geometry.x(forTime: target).rounded())
        let rect = Self.pictureRect(.above, width: width, height: height)
        _ = try xdotool(["mousemove", "--window", id, "\(layout.scrubberLeft + 20)", "\(y)", "mousedown", "1"])
        _ = try xdotool(["mousemove", "--window", id, "\(x)", "\(y)"])
        usleep(600_000)
        let held = try Self.screenshot(rig, to: rig.server.directory + "/held.png", width: width, height: height)
        let preview = try #require(Self.counter(in: held.frame, rect: rect), "no picture while dragging")
        let pointerTime = geometry.time(forX: Double(x))
        // The preview starts from the keyframe before the pointer (one every 50 frames) and decodes on
        // towards it while the pointer rests: never past it, never before that keyframe.
        let keyframe = Int(pointerTime * Self.fps) / 50 * 50
        #expect(Double(preview) / Self.fps <= pointerTime + 1e-9 && preview >= keyframe,
                "while held at \(pointerTime) s the picture shows frame \(preview)")
        _ = try xdotool(["mouseup", "1"])
        usleep(800_000)
        let dropped = try Self.screenshot(rig, to: rig.server.directory + "/dropped.png", width: width, height: height)
        let exact = try #require(Self.counter(in: dropped.frame, rect: rect), "no picture after the drop")
        let expected = Int((dropped.playhead * Self.fps + 1e-6).rounded(.down))
        print("drag to \(pointerTime) s: preview frame \(preview), after the drop frame \(exact) at playhead \(dropped.playhead) (frame \(expected))")
        #expect(abs(dropped.playhead - pointerTime) < 0.01, "the playhead went to \(dropped.playhead), not \(pointerTime)")
        #expect(abs(exact - expected) <= 1, "after the drop the picture shows frame \(exact), the playhead is at frame \(expected)")
    }

    @Test("a video over HTTP (nginx on loopback) shows its picture in step with the playhead, as from a file")
    func streamedPicture() throws {
        let folder = try TestRig.temporaryDirectory()
        let web = try NginxServer(directory: folder + "/web")
        try Self.makeCounterVideo(at: web.www + "/counter.mp4", seconds: 12, extra: ["-movflags", "+faststart"])
        let (screen, rig) = try Self.daemonWithWindow(environment: ["XDG_CACHE_HOME": folder + "/cache"])
        defer { withExtendedLifetime(screen) {} }
        let width = Self.windowWidth, height = Self.windowHeight
        #expect(try rig.ctl("open", web.url("counter.mp4")).status == 0)
        #expect(TestRig.wait(timeout: 15) {
            if case .number(let position)? = try? rig.player("position") { return position > 2 }
            return false
        }, "the stream did not play")
        let rect = Self.pictureRect(.above, width: width, height: height)
        var offsets: [Int] = []
        for shot in 0 ..< 4 {
            let taken = try Self.screenshot(rig, to: rig.server.directory + "/stream-\(shot).png", width: width, height: height)
            let number = try #require(Self.counter(in: taken.frame, rect: rect), "screenshot \(shot) of the stream shows no picture")
            offsets.append(number - Int((taken.playhead * Self.fps).rounded(.down)))
            usleep(300_000)
        }
        print("stream: shown frame minus the playhead's frame: \(offsets)")
        // Under a sanitizer decoding runs several times slower: within half a second, as from a file.
        let within = ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] == nil ? 1 : Int(Self.fps / 2)
        #expect(offsets.allSatisfy { abs($0) <= within }, "the stream's picture is away from the playhead by \(offsets) frames")
    }

    /// Frame k of a render, decoded to RGBA.
    static func renderedFrames(_ path: String, width: Int, height: Int) throws -> [RenderTests.Frame] {
        let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        let size = width * height * 4
        let bytes = [UInt8](decoded.output)
        guard !bytes.isEmpty, bytes.count % size == 0 else { throw RigError("\(path): \(decoded.error)") }
        return try stride(from: 0, to: bytes.count, by: size).map {
            try RenderTests.Frame(pixels: Array(bytes[$0 ..< $0 + size]), width: width, height: height, bottomUp: false)
        }
    }

    @Test("render: output frame k shows the source frame on screen at k/fps, the same in two renders; at 30 fps from a 25 fps source too")
    func renderIsFrameExact() throws {
        let directory = try TestRig.temporaryDirectory()
        let video = directory + "/counter.mp4"
        try Self.makeCounterVideo(at: video, seconds: 6)
        let width = 480, height = 360
        for fps in [25, 30] {
            var runs: [[RenderTests.Frame]] = []
            for run in 0 ..< 2 {
                let out = directory + "/render-\(fps)-\(run).mp4"
                let result = try TestRig.run(TestRig.decibar, ["render", video, "-o", out, "--size", "\(width)x\(height)", "--fps", "\(fps)",
                                                               "--duration", "4", "--video-layout", "above"],
                                             environment: ["DECIBAR_TEST_ENV": "1"])
                #expect(result.status == 0, "render failed: \(result.error)")
                runs.append(try Self.renderedFrames(out, width: width, height: height))
            }
            let rect = Self.pictureRect(.above, width: width, height: height)
            let frames = runs[0]
            #expect(frames.count == 4 * fps, "\(frames.count) frames at \(fps) fps")
            var wrong: [(Int, Int?)] = []
            for (k, frame) in frames.enumerated() {
                let expected = Int((Double(k) / Double(fps) * Self.fps + 1e-6).rounded(.down))
                let shown = Self.counter(in: frame, rect: rect)
                if shown != expected { wrong.append((k, shown)) }
            }
            #expect(wrong.isEmpty, "at \(fps) fps, frames showing the wrong picture (output frame, source frame): \(wrong.prefix(10))")
            #expect(runs[0].map(\.pixels) == runs[1].map(\.pixels), "two renders at \(fps) fps differ")
        }
    }

    @Test("a cut-short mp4, an unsupported video codec and a picture-less video layout play their audio; cover art shows as a still")
    func badPictures() throws {
        let screen = try PrivateDisplay()
        let server = try PrivatePulseServer()
        let environment = server.environment.merging(["DISPLAY": screen.display]) { $1 }
        let directory = server.directory
        let width = 480, height = 360
        func play(_ file: String, _ extra: [String] = [], seconds: Double = 3) throws -> (status: Int32, error: String, shot: RenderTests.Frame) {
            let shot = directory + "/shot-\(UUID().uuidString).png"
            let result = try TestRig.run(TestRig.decibar, ["play", file, "--size", "\(width)x\(height)", "--exit-after", "\(seconds)",
                                                           "--screenshot", shot] + extra, environment: environment)
            return (result.status, result.error, try RenderTests.Frame(png: shot, width: width, height: height))
        }
        let rect = Self.pictureRect(.under, width: width, height: height)

        // Cut short: the index (moved to the front) promises 20 s, the data stops near 8 s.
        let whole = directory + "/whole.mp4"
        try Self.makeCounterVideo(at: whole, extra: ["-movflags", "+faststart"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = directory + "/cut.mp4"
        try bytes.prefix(bytes.count * 2 / 5).write(to: URL(fileURLWithPath: cut))
        let truncated = try play(cut, ["--video-layout", "above"], seconds: 12)
        let lines = truncated.error.split(separator: "\n").filter { $0.contains("picture") }
        #expect(truncated.status == 0, "\(truncated.error)")
        #expect(lines.count == 1 && lines[0].contains("stops at"), "what was said about the picture: \(truncated.error)")

        // An unknown codec: the video track's sample entry renamed.
        var renamed = [UInt8](bytes)
        // The sample entry follows the `stsd` box's header (the brand list also says avc1).
        let stsd = try #require((0 ..< renamed.count - 4).first { Array(renamed[$0 ..< $0 + 4]) == Array("stsd".utf8) })
        let entry = Array("avc1".utf8)
        let at = try #require((stsd ..< renamed.count - 4).first { Array(renamed[$0 ..< $0 + 4]) == entry })
        renamed.replaceSubrange(at ..< at + 4, with: Array("xvc9".utf8))
        let unknown = directory + "/unknown.mp4"
        try Data(renamed).write(to: URL(fileURLWithPath: unknown))
        let unsupported = try play(unknown)
        #expect(unsupported.status == 0, "\(unsupported.error)")
        let said = unsupported.error.split(separator: "\n").filter { $0.contains("picture") }
        #expect(said.count == 1 && said[0].contains("the audio plays"), "what was said: \(unsupported.error)")
        #expect(Self.counter(in: unsupported.shot, rect: rect) == nil, "a picture was drawn for an unknown codec")

        // --video-layout off: the audio alone, drawn as for a music file.
        let off = try play(whole, ["--video-layout", "off"], seconds: 2)
        #expect(off.status == 0)
        #expect(Self.counter(in: off.shot, rect: rect) == nil && Self.counter(in: off.shot, rect: Self.pictureRect(.above, width: width, height: height)) == nil,
                "--video-layout off drew a picture")

        // Cover art: an MP3 with a solid orange picture attached.
        let cover = directory + "/cover.png", song = directory + "/song.mp3"
        #expect(try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "color=c=0xFF8000:s=200x200:d=1", "-frames:v", "1", cover]).status == 0)
        #expect(try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=440:duration=5", "-i", cover,
                                           "-map", "0", "-map", "1", "-c:a", "libmp3lame", "-c:v", "mjpeg", "-id3v2_version", "3",
                                           "-disposition:v", "attached_pic", song]).status == 0)
        let still = try play(song, ["--video-layout", "above"])
        #expect(still.status == 0, "\(still.error)")
        let coverRect = try #require(PictureLayout(.above, aspectRatio: 1, width: width, areaHeight: PlayLayout(width: width, height: height).barsHeight).picture)
        let (r, g, b) = still.shot.pixel(x: coverRect.x + 6, y: coverRect.y + 6)
        #expect(r > 230 && (110 ... 150).contains(g) && b < 30, "the cover's corner is (\(r), \(g), \(b)), not orange")
        #expect(!still.error.contains("picture"), "\(still.error)")
    }
}
