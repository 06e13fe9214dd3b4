import DecibarCore
import Foundation
import Testing

/// `decibar render`, offscreen with no display, checked with ffprobe and the frames themselves.
@Suite("decibar render", .serialized)
struct RenderCommandTests {
    /// The test's environment without a display: render must not need one.
    let headless = ["DISPLAY": "", "XDG_CACHE_HOME": NSTemporaryDirectory() + "decibar-render-test-cache"]

    func ffmpeg(_ arguments: [String]) throws {
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + arguments)
        #expect(made.status == 0, "\(made.error)")
    }

    func render(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, error: String) {
        let result = try TestRig.run(TestRig.decibar, ["render"] + arguments, environment: headless.merging(environment) { $1 })
        return (result.status, result.error)
    }

    @Test("a 10 s file at 30 fps gives 300 frames, 10 s long, with its audio")
    func lengthAndAudio() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/tone.flac"
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=10", "-ac", "2", input])
        let output = folder + "/out.mp4"
        let result = try render([input, "-o", output, "--size", "320x180", "--fps", "30"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1 && result.error.contains("rendered 300 frames"))
        let probe = try TestRig.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries",
                                                "stream=codec_type,nb_read_frames,duration", "-of", "csv=p=0", output])
        let streams = String(decoding: probe.output, as: UTF8.self).split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let video = try #require(streams.first { $0.first == "video" })
        let audio = streams.first { $0.first == "audio" }
        #expect(abs((Int(video[2]) ?? 0) - 300) <= 1, "\(video)")
        #expect(abs((Double(video[1]) ?? 0) - 10) < 0.05, "\(video)")
        #expect(audio != nil, "no audio stream: \(streams)")
        if let audio { #expect(abs((Double(audio[1]) ?? 0) - 10) < 0.05, "\(audio)") }
        // Encoded in the process from the samples decoded for the frames: the picture 320 wide
        // (coded 384 wide, cropped), the audio the file's own, as loud and as long.
        let size = try TestRig.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=width,height", "-of", "csv=p=0", output])
        #expect(String(decoding: size.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "320,180")
        func samples(_ path: String) throws -> [Float] {
            let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-map", "0:a", "-ac", "1", "-f", "f32le", "-"])
            return decoded.output.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }
        func rms(_ values: ArraySlice<Float>) -> Double { (values.reduce(0) { $0 + Double($1 * $1) } / Double(max(1, values.count))).squareRoot() }
        let source = try samples(input), encoded = try samples(output)
        // FFmpeg 5.1 decodes the last AAC frame whole (the container's end is 10 s): up to 1023 more.
        #expect(encoded.count >= source.count && encoded.count < source.count + 1024, "\(encoded.count) samples against the file's \(source.count)")
        let loudness = 20 * log10(rms(encoded[48000 ..< 432000]) / rms(source[48000 ..< 432000]))
        #expect(abs(loudness) < 0.2, "the encoded audio is \(loudness) dB off the file's")
    }

    /// SHA-256 of every file in a folder of frames, in name order (by sha256sum).
    func frameHashes(_ folder: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let result = try TestRig.run("sha256sum", names.map { folder + $0 })
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").map { String($0.prefix(64)) }
    }

    @Test("rendering the same input twice gives identical frames, in PNG frames and in the video (whatever the heap held)", arguments: ["bars", "spectrum", "meter"])
    func deterministic(mode: String) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/music.wav"
        try ffmpeg(["-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(200+300*t)*t)*exp(-3*mod(t\\,0.5))|0.3*sin(2*PI*880*t):s=44100:d=2", input])
        var hashes: [[String]] = []
        var videoHashes: [String] = []
        for run in 0 ..< 2 {
            let frames = folder + "/frames\(run)/"
            let result = try render([input, "-o", frames, "--size", "320x180", "--fps", "25", "--mode", mode, "--caps"])
            #expect(result.status == 0, "\(result.error)")
            hashes.append(try frameHashes(frames))
            // The encoded video too, once, the second time with the heap's free memory holding
            // other bytes (libx264 reads some it has not written; see VideoFileEncoder).
            guard mode == "spectrum" else { continue }
            let video = folder + "/video\(run).mp4"
            #expect(try render([input, "-o", video, "--size", "320x180", "--fps", "25", "--mode", mode],
                               environment: run == 1 ? ["MALLOC_PERTURB_": "85"] : [:]).status == 0)
            let md5 = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", video, "-map", "0:v", "-f", "framemd5", "-"])
            videoHashes.append(String(decoding: md5.output, as: UTF8.self))
        }
        #expect(hashes[0].count == 50)
        #expect(hashes[0] == hashes[1])
        #expect(Set(hashes[0]).count > 10, "the frames should differ from each other")
        if mode == "spectrum" { #expect(videoHashes.count == 2 && !videoHashes[0].isEmpty && videoHashes[0] == videoHashes[1]) }
    }

    @Test("silence until exactly 2.000 s, then a tone: no frame before 2 s shows a bar above the floor, the next one does")
    func frameExact() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/burst.wav"
        try ffmpeg(["-f", "lavfi", "-i", "aevalsrc=if(gte(n\\,96000)\\,0.8*sin(2*PI*1000*t)\\,0):s=48000:d=3", "-ac", "2", "-c:a", "pcm_f32le", input])
        let frames = folder + "/frames/"
        let result = try render([input, "-o", frames, "--size", "320x180", "--fps", "30", "--bars", "16"])
        #expect(result.status == 0, "\(result.error)")
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        #expect(names.count == 90)
        let layout = PlayLayout(width: 320, height: 180)
        let bars = BarLayout().rects(for: [Float](repeating: 1, count: 16), width: 320, height: layout.barsHeight)
        /// Tallest painted run in the bar columns of the visualizer area.
        func tallestBar(_ name: String) throws -> Int {
            let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", frames + name, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
            let frame = try RenderTests.Frame(pixels: [UInt8](decoded.output), width: 320, height: 180, bottomUp: false)
            return bars.map { rect in
                (0 ..< layout.barsHeight).filter { !frame.isBackground(x: rect.x + rect.width / 2, y: $0, theme: .default) }.count
            }.max() ?? 0
        }
        let floorHeight = BarLayout().minimumHeight
        // Frame k shows t = k/30: frames 0...59 are before 2.000 s; frame 60 is 2.000 s itself,
        // when the tone's first sample is heard.
        for index in [0, 30, 58, 59] {
            #expect(try tallestBar(names[index]) <= floorHeight, "frame \(index) (t = \(Double(index) / 30) s) shows a bar")
        }
        #expect(try tallestBar(names[60]) > floorHeight, "frame 60 (2.000 s) does not show the tone starting")
        #expect(try tallestBar(names[61]) > floorHeight + 4, "frame 61 (2.000 s + one frame) shows no bar")
    }

    @Test("a render stopped half-way leaves nothing at OUT")
    func interrupted() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/long.flac"
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=330:sample_rate=48000:duration=120", "-ac", "2", input])
        for (signal, name) in [(SIGTERM, "term"), (SIGKILL, "kill")] {
            let output = folder + "/\(name).mp4"
            let running = try RunningCommand(["render", input, "-o", output, "--size", "1280x720"], environment: headless)
            // Let it get going: the temporary file appears once ffmpeg has frames.
            let deadline = TestRig.now() + 20
            func started() -> Bool {
                ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.contains(".partial") }
            }
            while TestRig.now() < deadline && !started() {
                usleep(50_000)
            }
            usleep(500_000)
            kill(running.process.processIdentifier, signal)
            let status = running.waitForExit(timeout: 20)
            #expect(status != 0 && status != nil)
            #expect(!FileManager.default.fileExists(atPath: output), "\(name): a file was left at OUT")
            if signal == SIGTERM {
                #expect(running.standardError.contains("interrupted"), "\(running.standardError)")
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".partial") }
                #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
            }
        }
    }

    @Test("a transparent background keeps its alpha in .mov (ProRes 4444) and .webm (VP9); .gif works too")
    func otherFormats() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/tone.wav"
        try TestRig.makeTone(at: input, amplitude: 0.5, seconds: 1)
        for (name, expected) in [("out.mov", "yuva444p"), ("out.webm", "alpha_mode=1"), ("out.gif", "codec_name=gif")] {
            let output = folder + "/" + name
            let result = try render([input, "-o", output, "--size", "160x90", "--background", "transparent"])
            #expect(result.status == 0, "\(name): \(result.error)")
            let probe = try TestRig.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,pix_fmt:stream_tags=alpha_mode",
                                                    "-of", "compact", output])
            let text = String(decoding: probe.output, as: UTF8.self)
            #expect(text.contains(expected), "\(name): \(text)")
        }
    }

    @Test("without the ffmpeg program an MP4 is still written, a WebM is one line; an unwritable OUT or an unknown extension: one line each")
    func errors() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/tone.wav"
        try TestRig.makeTone(at: input, amplitude: 0.5, seconds: 1)
        let noFFmpeg = try render([input, "-o", folder + "/out.webm"], environment: ["PATH": folder])
        #expect(noFFmpeg.status == 1 && noFFmpeg.error.contains("ffmpeg") && noFFmpeg.error.split(separator: "\n").count == 1, "\(noFFmpeg.error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.webm"))
        let mp4 = try render([input, "-o", folder + "/out.mp4", "--size", "320x180"], environment: ["PATH": folder])
        #expect(mp4.status == 0, "\(mp4.error)")
        let probe = try TestRig.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", folder + "/out.mp4"])
        #expect(String(decoding: probe.output, as: UTF8.self).split(separator: "\n") == ["h264", "aac"])
        let unwritable = try render([input, "-o", "/no/such/folder/out.mp4"])
        #expect(unwritable.status == 2 && unwritable.error.split(separator: "\n").count == 1, "\(unwritable.error)")
        let unknown = try render([input, "-o", folder + "/out.xyz"])
        #expect(unknown.status == 2 && unknown.error.contains("unknown kind of output") && unknown.error.split(separator: "\n").count == 1)
        let missing = try render([folder + "/nothing.flac", "-o", folder + "/out.mp4"])
        #expect(missing.status == 1 && missing.error.contains("no such file"))
    }

    /// Pixels of a PNG frame (RGBA, top row first).
    func framePixels(_ path: String, width: Int, height: Int) throws -> [UInt8] {
        let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        #expect(decoded.output.count == width * height * 4, "\(path): \(decoded.error)")
        return [UInt8](decoded.output)
    }

    /// How many pixels of the rows above `bottom` are near a color (the bars are never white or yellow).
    func count(_ pixels: [UInt8], width: Int, bottom: Int, where test: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        (0 ..< min(bottom, pixels.count / (width * 4)) * width).filter { test(pixels[$0 * 4], pixels[$0 * 4 + 1], pixels[$0 * 4 + 2]) }.count
    }

    @Test("--captions: a cue from 1.000 s to 2.000 s shows on frames 30 to 59 at 30 fps and on no other")
    func captionsOnTheirFrames() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/talk.wav"
        try ffmpeg(["-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.2:duration=3:sample_rate=48000", "-ac", "2", input])
        try "1\n00:00:01,000 --> 00:00:02,000\nHello there, listeners\n".write(toFile: folder + "/cues.srt", atomically: true, encoding: .utf8)
        let frames = folder + "/frames/"
        let result = try render([input, "-o", frames, "--size", "640x360", "--fps", "30", "--captions", folder + "/cues.srt"])
        #expect(result.status == 0, "\(result.error)")
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        #expect(names.count == 90)
        let barsBottom = PlayLayout(width: 640, height: 360).barsHeight
        func white(_ index: Int) throws -> Int {
            count(try framePixels(frames + names[index], width: 640, height: 360), width: 640, bottom: barsBottom) { $0 > 230 && $1 > 230 && $2 > 230 }
        }
        for index in [0, 29, 60, 61, 89] { #expect(try white(index) == 0, "frame \(index) shows words") }
        for index in [30, 45, 59] { #expect(try white(index) > 100, "frame \(index) shows no words") }
    }

    @Test("a tagged MP3 with its cover and a .lrc beside it, --size 9:16: 1080x1920, OCR reads the title and the artist and each lyric line from its first frame and not before, and the cover's colors are where the layout puts it")
    func composedTallVideo() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A cover of four colored quarters, and 10 s of music with its tags and the cover embedded.
        let cover = folder + "/art.png"
        try ffmpeg(["-f", "lavfi", "-i", "color=c=0xD02020:s=200x200,pad=400:400:0:0:0x20A040,drawbox=x=200:y=200:w=200:h=200:c=0x2050E0:t=fill,drawbox=x=200:y=0:w=200:h=200:c=0xE0C020:t=fill",
                    "-frames:v", "1", cover])
        let song = folder + "/harbor.mp3"
        try ffmpeg(["-t", "10", "-i", try MusicLibrary.path(of: MusicLibrary.songs[1]), "-i", cover, "-map", "0:a", "-map", "1",
                    "-c:a", "libmp3lame", "-b:a", "192k", "-c:v", "png", "-disposition:v", "attached_pic", "-id3v2_version", "3",
                    "-metadata", "title=Harbor Lights", "-metadata", "artist=Quiet Engines", song])
        let lines = [(start: 1.0, text: "Morning comes slowly"), (start: 4.5, text: "Every river finds the sea"), (start: 8.0, text: "Carry me home")]
        try lines.map { String(format: "[00:%05.2f]%@", $0.start, $0.text) }.joined(separator: "\n")
            .write(toFile: folder + "/harbor.lrc", atomically: true, encoding: .utf8)
        let video = folder + "/tall.mp4"
        let result = try render([song, "--size", "9:16", "-o", video])
        #expect(result.status == 0, "\(result.error)")
        let probe = try TestRig.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", video])
        #expect(String(decoding: probe.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "1080,1920")

        // Frame k is time k/30: each line from its first frame; the frame before shows the line before it.
        let checks: [(frame: Int, line: Int?)] = [(29, nil), (30, 0), (134, 0), (135, 1), (239, 1), (240, 2), (290, 2)]
        let select = checks.map { "eq(n\\,\($0.frame))" }.joined(separator: "+")
        try ffmpeg(["-i", video, "-vf", "select=\(select)", "-fps_mode", "passthrough", folder + "/shot-%02d.png"])
        for (index, check) in checks.enumerated() {
            let shot = folder + String(format: "/shot-%02d.png", index + 1)
            let read = try TextReader.text(in: shot)
            #expect(read.contains("harbor lights") && read.contains("quiet engines"), "frame \(check.frame): read \"\(read)\"")
            for (number, line) in lines.enumerated() {
                #expect(read.contains(line.text.lowercased()) == (number == check.line), "frame \(check.frame): read \"\(read)\"")
            }
        }
        // The cover's four quarters, each near its color in the middle of its place (H.264 shifts colors a little).
        let layout = ComposedLayout(width: 1080, height: 1920, hasCover: true, titleLines: 1, artistLines: 1, radial: false)
        let place = try #require(layout.cover)
        let pixels = try framePixels(folder + "/shot-01.png", width: 1080, height: 1920)
        for (qx, qy, color) in [(0, 0, (0xD0, 0x20, 0x20)), (1, 0, (0xE0, 0xC0, 0x20)), (0, 1, (0x20, 0xA0, 0x40)), (1, 1, (0x20, 0x50, 0xE0))] {
            let x = place.x + place.width * (1 + 2 * qx) / 4, y = place.y + place.height * (1 + 2 * qy) / 4
            let offset = (y * 1080 + x) * 4
            let found = (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
            #expect(abs(found.0 - color.0) < 24 && abs(found.1 - color.1) < 24 && abs(found.2 - color.2) < 24, "quarter \(qx),\(qy): \(found)")
        }
    }

    @Test("two outputs in one run (-o -o --size 320x180,180x320): each frame identical to that size rendered alone, and the audio opened as often as for one output (strace)")
    func twoOutputsDecodeOnce() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/music.wav"
        try ffmpeg(["-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(200+300*t)*t)*exp(-3*mod(t\\,0.5))|0.3*sin(2*PI*880*t):s=44100:d=2", input])
        /// Renders under strace, with a cache of its own (a cached overview saves a reading); gives
        /// how many times the audio file was opened.
        func traced(_ arguments: [String], log: String) throws -> Int {
            let result = try TestRig.run("strace", ["-f", "-qq", "-e", "trace=open,openat", "-o", log, TestRig.decibar, "render", input] + arguments,
                                         environment: headless.merging(["XDG_CACHE_HOME": log + ".cache"]) { $1 })
            #expect(result.status == 0, "\(result.error)")
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            return lines.filter { $0.contains("\"\(input)\"") && !$0.contains("= -1") }.count
        }
        let both = try traced(["-o", folder + "/wide/", "-o", folder + "/tall/", "--size", "320x180,180x320", "--mode", "spectrum"],
                              log: folder + "/both.log")
        let alone = try traced(["-o", folder + "/wide-alone/", "--size", "320x180", "--mode", "spectrum"], log: folder + "/alone.log")
        #expect(both == alone && alone > 0, "opened \(both) times for two outputs, \(alone) for one")
        let tall = try render([input, "-o", folder + "/tall-alone/", "--size", "180x320", "--mode", "spectrum"])
        #expect(tall.status == 0, "\(tall.error)")
        #expect(try frameHashes(folder + "/wide/") == frameHashes(folder + "/wide-alone/"))
        #expect(try frameHashes(folder + "/tall/") == frameHashes(folder + "/tall-alone/"))
        #expect(try frameHashes(folder + "/wide/").count == 60)
        // Sizes that do not match the outputs, and Milkdrop (one engine per process), are refused in one line.
        let mismatched = try render([input, "-o", folder + "/a/", "-o", folder + "/b/", "-o", folder + "/c/", "--size", "16:9,9:16"])
        #expect(mismatched.status == 2 && mismatched.error.contains("2 sizes for 3 outputs"), "\(mismatched.error)")
        let milkdrop = try render([input, "-o", folder + "/a/", "-o", folder + "/b/", "--mode", "milkdrop"])
        #expect(milkdrop.status == 2 && milkdrop.error.contains("one output at a time"), "\(milkdrop.error)")
    }

    @Test("composed videos' bad input: a cover or backdrop that is not a picture, a bad color, each one line with nothing written; a 10,000-character title is cut and the render completes")
    func composedBadInput() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/tone.wav"
        try TestRig.makeTone(at: input, amplitude: 0.5, seconds: 1)
        try "words".write(toFile: folder + "/notes.jpg", atomically: true, encoding: .utf8)
        let cases: [([String], String, Int32)] = [
            (["--cover", folder + "/notes.jpg"], "--cover", 1), (["--cover", folder + "/missing.png"], "--cover", 1),
            (["--cover", folder], "is a folder", 1), (["--backdrop", input], "no picture or video in it", 1),
            (["--backdrop", "#12345"], "#RRGGBB", 2),
        ]
        for (arguments, reason, status) in cases {
            let output = folder + "/out.mp4"
            let result = try render([input, "-o", output, "--size", "320x180"] + arguments)
            #expect(result.status == status && result.error.contains(reason) && result.error.split(separator: "\n").count == 1,
                    "\(arguments): \(result.error)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(arguments) left a video")
        }
        let long = try render([input, "-o", folder + "/long/", "--size", "640x360", "--title", String(repeating: "Harbor ", count: 1430),
                               "--artist", String(repeating: "x", count: 10_000)])
        #expect(long.status == 0, "\(long.error)")
        let pixels = try framePixels(folder + "/long/frame-000001.png", width: 640, height: 360)
        // Cut within the safe area: the columns outside it stay the backdrop's.
        let layout = ComposedLayout(width: 640, height: 360, hasCover: false, titleLines: 2, artistLines: 1, radial: false)
        func isWhite(_ x: Int, _ y: Int) -> Bool {
            let offset = (y * 640 + x) * 4
            return pixels[offset] > 200 && pixels[offset + 1] > 200
        }
        let edges = [0, 1, 2, 637, 638, 639]
        let white = (0 ..< layout.text.y + layout.text.height).contains { y in edges.contains { x in isWhite(x, y) } }
        #expect(!white, "the title runs off the frame")
        let text = try TextReader.text(in: folder + "/long/frame-000001.png")
        #expect(text.contains("harbor"), "read \"\(text)\"")
    }

    @Test("a Chinese title and an Arabic artist: the title drawn with the CJK face fontconfig finds, the Arabic joined and right to left, each read back by tesseract")
    func otherScripts() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/tone.wav"
        try TestRig.makeTone(at: input, amplitude: 0.5, seconds: 1)
        let result = try render([input, "-o", folder + "/frames/", "--size", "1280x720", "--duration", "0.1", "--backdrop", "#203040",
                                 "--title", "海港灯光", "--artist", "مرحبا بالعالم"])
        #expect(result.status == 0, "\(result.error)")
        let frame = folder + "/frames/frame-000001.png"
        let chinese = try TextReader.text(in: frame, language: "chi_sim").replacingOccurrences(of: " ", with: "")
        #expect(chinese.contains("海港灯光"), "read \"\(chinese)\"")
        // Read in its own order: drawn left to right, or with its letters unjoined, tesseract reads other words.
        let arabic = try TextReader.text(in: frame, language: "ara")
        #expect(arabic.contains("مرحبا") && arabic.contains("بالعالم"), "read \"\(arabic)\"")
    }

    @Test("--progress none: the slim scrubber and its times are gone, the strip they took is the backdrop; --progress bar (the default) draws them; --progress ring is one line")
    func progress() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/silence.wav"
        try TestRig.makeTone(at: input, amplitude: 0, seconds: 1)
        // Pixels in the scrubber's strip (from its top to the frame's bottom) that are not the backdrop's #203040.
        func marked(_ style: String) throws -> Int {
            let frames = folder + "/\(style)/"
            let result = try render([input, "-o", frames, "--size", "640x360", "--duration", "0.2", "--title", "Harbor",
                                     "--backdrop", "#203040", "--progress", style])
            #expect(result.status == 0, "\(result.error)")
            let pixels = try framePixels(frames + "frame-000006.png", width: 640, height: 360)
            let top = PlayLayout(width: 640, height: 360, scrubberPercent: ComposedLayout.scrubberPercent).scrubberTop
            return (top * 640 ..< 360 * 640).count { index in
                zip(pixels[index * 4 ..< index * 4 + 3], [0x20, 0x30, 0x40]).contains { abs(Int($0) - $1) > 8 }
            }
        }
        #expect(try marked("bar") > 200)
        #expect(try marked("none") == 0)
        let bad = try render([input, "-o", folder + "/ring.mp4", "--progress", "ring"])
        #expect(bad.status == 2 && bad.error.contains("--progress must be one of bar, none"), "\(bad.error)")
    }

    @Test("--backdrop VIDEO: a one-second video, red then blue, loops behind a composed frame, each color on its frames, the loop starting again on frame 11 (1.0 s)")
    func backdropVideo() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/tone.wav"
        try TestRig.makeTone(at: input, amplitude: 0.5, seconds: 3)
        let backdrop = folder + "/loop.mp4"
        try ffmpeg(["-f", "lavfi", "-i", "color=c=0xFF0000:s=160x90:r=10:d=0.5", "-f", "lavfi", "-i", "color=c=0x0000FF:s=160x90:r=10:d=0.5",
                    "-filter_complex", "[0][1]concat=n=2:v=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", backdrop])
        let frames = folder + "/frames/"
        let result = try render([input, "-o", frames, "--size", "320x180", "--fps", "10", "--duration", "2.5", "--title", "Harbor",
                                 "--backdrop", backdrop])
        // Nothing said but the summary: the backdrop did not stop.
        #expect(result.status == 0 && result.error.split(separator: "\n").count == 1, "\(result.error)")
        // The top-left corner, outside the safe area: the backdrop, dimmed.
        func color(_ index: Int) throws -> String {
            let pixels = try framePixels(frames + String(format: "frame-%06d.png", index), width: 320, height: 180)
            let (red, blue) = (Int(pixels[4 * 320 * 4 + 4 * 4]), Int(pixels[4 * 320 * 4 + 4 * 4 + 2]))
            return red > 80 && blue < 40 ? "red" : blue > 80 && red < 40 ? "blue" : "\(red),\(blue)"
        }
        // Frame k is at (k - 1) / 10 s: red until 0.5 s, blue until 1.0 s, then again.
        let expected = [1: "red", 5: "red", 6: "blue", 10: "blue", 11: "red", 15: "red", 16: "blue", 20: "blue", 21: "red", 25: "red"]
        for (index, want) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(try color(index) == want, "frame \(index)")
        }
    }

    @Test("--watermark: a logo's opaque half shows in the chosen corner of every frame, its transparent half lets the frame through; a file that is not a picture or a bad corner is one line")
    func watermark() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/tone.wav"
        try TestRig.makeTone(at: input, amplitude: 0.5, seconds: 1)
        // 64x64: the left half opaque red, the right half transparent.
        let logo = folder + "/logo.png"
        try ffmpeg(["-f", "lavfi", "-i", "color=c=red@1.0:s=32x64,format=rgba", "-f", "lavfi", "-i", "color=c=red@0.0:s=32x64,format=rgba",
                    "-filter_complex", "[0][1]hstack,format=rgba", "-frames:v", "1", logo])
        func isRed(_ pixels: [UInt8], _ x: Int, _ y: Int) -> Bool {
            let offset = (y * 640 + x) * 4
            return pixels[offset] > 200 && pixels[offset + 1] < 60 && pixels[offset + 2] < 60
        }
        for corner in [WatermarkLayout.Corner.topRight, .bottomLeft] {
            let frames = folder + "/\(corner.rawValue)/"
            let result = try render([input, "-o", frames, "--size", "640x360", "--duration", "0.2", "--watermark", logo,
                                     "--watermark-corner", corner.rawValue])
            #expect(result.status == 0, "\(result.error)")
            let scrubberTop = PlayLayout(width: 640, height: 360).scrubberTop
            let rect = WatermarkLayout(pictureWidth: 64, pictureHeight: 64, canvasWidth: 640, canvasHeight: 360, corner: corner,
                                       above: scrubberTop).rect
            #expect(rect.y + rect.height < scrubberTop, "\(rect) clear of the scrubber at \(scrubberTop)")
            for name in ["frame-000001.png", "frame-000006.png"] {
                let pixels = try framePixels(frames + name, width: 640, height: 360)
                let opaque = (rect.x + 2 ..< rect.x + rect.width / 2 - 2).allSatisfy { isRed(pixels, $0, rect.y + rect.height / 2) }
                let clear = (rect.x + rect.width / 2 + 2 ..< rect.x + rect.width - 2).allSatisfy { !isRed(pixels, $0, rect.y + rect.height / 2) }
                #expect(opaque && clear, "\(corner) \(name): the logo's halves at \(rect)")
            }
        }
        try "words".write(toFile: folder + "/notes.png", atomically: true, encoding: .utf8)
        for (arguments, reason) in [(["--watermark", folder + "/notes.png"], "--watermark"), (["--watermark", logo, "--watermark-corner", "middle"], "--watermark-corner")] {
            let result = try render([input, "-o", folder + "/bad.mp4", "--size", "320x180"] + arguments)
            #expect(result.status != 0 && result.error.contains(reason) && result.error.split(separator: "\n").count == 1, "\(arguments): \(result.error)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/bad.mp4"))
        }
    }

    @Test("--captions talk.srt --captions-track on speech-like audio: OCR reads each cue from its first frame and not on the frame before; ffprobe lists a mov_text stream with the same cue times")
    func captionsReadAndMuxed() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A voice: a gliding pitch with its second harmonic, in syllables of 0.2 s.
        let input = folder + "/talk.wav"
        let pitch = "(140+30*sin(2*PI*0.5*t))"
        try ffmpeg(["-f", "lavfi", "-i", "aevalsrc=0.3*abs(sin(2*PI*2.5*t))*(sin(2*PI*\(pitch)*t)+0.5*sin(4*PI*\(pitch)*t)):s=48000:d=5",
                    "-ac", "2", input])
        let cues = [(start: 1.0, end: 2.5, text: "Hello there, listeners"), (start: 3.123, end: 4.6, text: "Second voice answers")]
        let srt = cues.enumerated().map { index, cue in
            "\(index + 1)\n00:00:0\(String(format: "%.3f", cue.start).replacingOccurrences(of: ".", with: ",")) --> "
                + "00:00:0\(String(format: "%.3f", cue.end).replacingOccurrences(of: ".", with: ","))\n\(cue.text)\n"
        }.joined(separator: "\n")
        try srt.write(toFile: folder + "/talk.srt", atomically: true, encoding: .utf8)
        let video = folder + "/talk.mp4"
        let result = try render([input, "-o", video, "--size", "1280x720", "--captions", folder + "/talk.srt", "--captions-track"])
        #expect(result.status == 0, "\(result.error)")

        // Frame k shows time k/30: cue 1 from frame 30 to 74, cue 2 from frame 94 (3.133 s) to 137.
        let checks: [(frame: Int, shows: String?)] = [(29, nil), (30, "listeners"), (74, "listeners"), (75, nil),
                                                      (93, nil), (94, "answers"), (137, "answers"), (138, nil)]
        let select = checks.map { "eq(n\\,\($0.frame))" }.joined(separator: "+")
        try ffmpeg(["-i", video, "-vf", "select=\(select)", "-fps_mode", "passthrough", folder + "/shot-%02d.png"])
        for (index, check) in checks.enumerated() {
            let read = try TextReader.text(in: folder + String(format: "/shot-%02d.png", index + 1))
            for word in ["listeners", "answers"] {
                #expect(read.contains(word) == (check.shows == word), "frame \(check.frame): read \"\(read)\"")
            }
        }

        // The soft track: a mov_text stream whose cues (empty samples between them left aside) start and end as in the file.
        let streams = try TestRig.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", video])
        #expect(String(decoding: streams.output, as: UTF8.self).split(separator: "\n") == ["h264", "aac", "mov_text"])
        let packets = try TestRig.run("ffprobe", ["-v", "error", "-select_streams", "s:0", "-show_entries", "packet=pts_time,duration_time,size",
                                                  "-of", "csv=p=0", video])
        let muxed = String(decoding: packets.output, as: UTF8.self).split(separator: "\n").compactMap { line -> (Double, Double)? in
            let fields = line.split(separator: ",").compactMap { Double($0) }
            guard fields.count == 3, fields[2] > 2 else { return nil }
            return (fields[0], fields[0] + fields[1])
        }
        #expect(muxed.count == cues.count, "\(muxed)")
        for (cue, found) in zip(cues, muxed) {
            #expect(abs(found.0 - cue.start) <= 0.001 && abs(found.1 - cue.end) <= 0.001, "\(cue) muxed as \(found)")
        }
        // Only video files hold a subtitle track; without captions there is nothing to mux.
        let gif = try render([input, "-o", folder + "/talk.gif", "--captions", folder + "/talk.srt", "--captions-track"])
        #expect(gif.status == 2 && gif.error.contains(".mp4, .mov or .webm"), "\(gif.error)")
        try FileManager.default.removeItem(atPath: folder + "/talk.srt")
        let none = try render([input, "-o", folder + "/none.mp4", "--captions-track"])
        #expect(none.status == 1 && none.error.contains("no captions") && !FileManager.default.fileExists(atPath: folder + "/none.mp4"),
                "\(none.error)")
    }

    @Test("a .lrc beside the audio is found: its lines show in a 9:16 (1080x1920) video, the sung word highlighted on its time")
    func lyricsBesideTheSong() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/song.wav"
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=220:sample_rate=48000:duration=2", "-ac", "2", input])
        try "[ti:Night Drive]\n[00:00.50]Lights <00:01.00>along <00:01.50>the highway\n".write(toFile: folder + "/song.lrc", atomically: true, encoding: .utf8)
        let frames = folder + "/frames/"
        // No title: the player's view, whose bars' area the counts look in (the lyrics' [ti:] would compose the video).
        let result = try render([input, "-o", frames, "--size", "9:16", "--fps", "10", "--title", ""])
        #expect(result.status == 0, "\(result.error)")
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        #expect(names.count == 20)
        let barsBottom = PlayLayout(width: 1080, height: 1920).barsHeight
        func colors(_ index: Int) throws -> (white: Int, sung: Int) {
            let pixels = try framePixels(frames + names[index], width: 1080, height: 1920)
            return (count(pixels, width: 1080, bottom: barsBottom) { $0 > 230 && $1 > 230 && $2 > 230 },
                    count(pixels, width: 1080, bottom: barsBottom) { $0 > 230 && (180...225).contains($1) && $2 < 100 })
        }
        // 0.4 s: nothing yet; 0.5 s: the line, none of it sung; 1.0 s: "Lights along" sung.
        #expect(try colors(4) == (0, 0))
        let shown = try colors(5)
        #expect(shown.white > 500 && shown.sung == 0, "\(shown)")
        let singing = try colors(10)
        #expect(singing.sung > 300 && singing.white > 300, "\(singing)")
    }

    @Test("caption files that cannot be read: one line, status 1, nothing written; a broken one beside the audio is said and left out")
    func badCaptionFiles() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/tone.wav"
        try TestRig.makeTone(at: input, amplitude: 0.5, seconds: 1)
        try "".write(toFile: folder + "/empty.srt", atomically: true, encoding: .utf8)
        try Data([0x00, 0x01, 0xFF, 0x00]).write(to: URL(fileURLWithPath: folder + "/binary.vtt"))
        try "1\n-00:00:01,000 --> 00:00:02,000\nx\n".write(toFile: folder + "/negative.srt", atomically: true, encoding: .utf8)
        try "1\n00:00:03,000 --> 00:00:02,000\nx\n".write(toFile: folder + "/backwards.srt", atomically: true, encoding: .utf8)
        try "words".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
        let cases: [(String, String)] = [
            ("missing.srt", "no such file"), ("empty.srt", "no captions in it"), ("binary.vtt", "not text"),
            ("negative.srt", "line 2: a negative time"), ("backwards.srt", "before it starts"), ("notes.txt", "not a caption file"),
        ]
        for (name, reason) in cases {
            let output = folder + "/out.mp4"
            let result = try render([input, "-o", output, "--size", "320x180", "--captions", folder + "/" + name])
            #expect(result.status == 1 && result.error.contains(reason) && result.error.split(separator: "\n").count == 1,
                    "\(name): \(result.error)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(name) left a video")
        }
        // Far too long: wrapped and cut with an ellipsis, and the render completes.
        try "1\n00:00:00,000 --> 00:00:01,000\n\(String(repeating: "words ", count: 20_000))\n".write(toFile: folder + "/long.srt", atomically: true, encoding: .utf8)
        let long = try render([input, "-o", folder + "/long/", "--size", "320x180", "--captions", folder + "/long.srt"])
        #expect(long.status == 0, "\(long.error)")
        // A broken file beside the audio: said in one line, and the render goes on without it.
        try "".write(toFile: folder + "/tone.srt", atomically: true, encoding: .utf8)
        let beside = try render([input, "-o", folder + "/beside/", "--size", "320x180"])
        #expect(beside.status == 0 && beside.error.contains("tone.srt: no captions in it; the captions are left out"), "\(beside.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/beside").count == 30)
    }
}
