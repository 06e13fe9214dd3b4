import DecibarCore
import DecibarRender
import Foundation
import Testing

/// The spectrogram (live and `decibar spectrogram`) and the stereo scope, read off their pictures.
@Suite("Spectrogram and scope", .serialized, .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct SpectrogramTests {
    /// A picture and what its frequency axis says: the ticks' rows, 20 Hz ... 20 kHz.
    struct Picture {
        let frame: RenderTests.Frame
        /// The plot's left edge (just right of the ticks) and the ticks' rows, top (20 kHz) first.
        let plotX: Int
        let ticks: [Int]
        static let tickHertz: [Double] = [20_000, 10_000, 5000, 2000, 1000, 500, 200, 100, 50, 20]

        init(_ frame: RenderTests.Frame) throws {
            self.frame = frame
            // The tick column: the rightmost column of the left fifth whose bright pixels are ten
            // single rows (labels are wider runs; the plot starts right of it).
            func brightRows(_ x: Int) -> [Int] { (0 ..< frame.height).filter { Self.luminance(frame.pixel(x: x, y: $0)) > 110 } }
            let column = (0 ..< frame.width / 5).last { x in
                let rows = brightRows(x)
                return rows.count == 10 && zip(rows, rows.dropFirst()).allSatisfy { $1 - $0 > 2 }
            }
            let x = try #require(column, "no tick column")
            plotX = x + 1
            ticks = brightRows(x)
        }

        static func luminance(_ pixel: (UInt8, UInt8, UInt8)) -> Int { (Int(pixel.0) * 3 + Int(pixel.1) * 6 + Int(pixel.2)) / 10 }

        /// The row the axis puts `hertz` at: between its two ticks, on the log scale.
        func row(ofHertz hertz: Double) -> Double {
            let index = min(Self.tickHertz.count - 2, max(0, Self.tickHertz.lastIndex { $0 >= hertz } ?? 0))
            let (high, low) = (Self.tickHertz[index], Self.tickHertz[index + 1])
            let fraction = log(hertz / low) / log(high / low)
            return Double(ticks[index + 1]) + fraction * Double(ticks[index] - ticks[index + 1])
        }

        /// One label step: the widest gap between neighboring ticks.
        var labelStep: Double { Double(zip(ticks, ticks.dropFirst()).map { $1 - $0 }.max() ?? 0) }

        /// The brightest row of column `x` (within the plot's rows).
        func brightestRow(x: Int) -> (row: Int, luminance: Int) {
            let rows = (ticks.first ?? 0) ... (ticks.last ?? frame.height - 1)
            let best = rows.max { Self.luminance(frame.pixel(x: x, y: $0)) < Self.luminance(frame.pixel(x: x, y: $1)) } ?? 0
            return (best, Self.luminance(frame.pixel(x: x, y: best)))
        }
    }

    static func decode(_ png: String) throws -> RenderTests.Frame {
        let image = try PNGImage.decode(Array(try Data(contentsOf: URL(fileURLWithPath: png))))
        return try RenderTests.Frame(pixels: image.pixels, width: image.width, height: image.height, bottomUp: false)
    }

    /// `live --mode MODE` while `file` plays, its frame after `seconds`.
    static func live(_ arguments: [String], playing file: (String) throws -> String, seconds: Double) throws -> (RenderTests.Frame, String) {
        let server = try PrivatePulseServer()
        let played = try file(server.directory)
        let png = server.directory + "/shot.png", frames = server.directory + "/frames.log"
        let live = try RunningCommand(["live", "--size", "960x480", "--exit-after", "\(seconds)", "--screenshot", png, "--frame-log", frames] + arguments,
                                      environment: server.environment)
        // `--exit-after` counts from the first frame: the music starts with it, however long the
        // window took to open (seconds under ThreadSanitizer, where a fixed wait let the file end
        // before the screenshot).
        #expect(TestRig.wait(timeout: 30) { ((try? String(contentsOfFile: frames, encoding: .utf8)) ?? "").contains("\n") || live.process.isRunning == false },
                "no frame drawn: \(live.standardError)")
        let player = try server.play(played)
        defer { player.kill() }
        #expect(live.waitForExit(timeout: 30) == 0, "stderr: \(live.standardError)")
        return (try decode(png), live.standardError)
    }

    static func makeAudio(_ path: String, _ filter: [String]) throws {
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + filter + ["-ar", "48000", path])
        #expect(made.status == 0, "\(made.error)")
    }

    /// 1 kHz for `first` seconds, then 4 kHz for `second`, at -6 dBFS.
    static func twoTones(_ path: String, first: Double, second: Double) throws {
        try makeAudio(path, ["-f", "lavfi", "-i", "sine=f=1000:r=48000:d=\(first)", "-f", "lavfi", "-i", "sine=f=4000:r=48000:d=\(second)",
                             "-filter_complex", "[0][1]concat=n=2:v=0:a=1,volume=0.5", "-ac", "2"])
    }

    @Test("live: a 1 kHz tone then a 4 kHz tone draw one line each, at the rows the axis labels say; the newest at the right")
    func liveTones() throws {
        let (frame, errors) = try Self.live(["--mode", "spectrogram"], playing: { folder in
            try Self.twoTones(folder + "/tones.wav", first: 2, second: 3)
            return folder + "/tones.wav"
        }, seconds: 4.2)
        let picture = try Picture(frame)
        let step = picture.labelStep
        // The newest column is 4 kHz; about 2.5 s back, 1 kHz.
        let plotRight = frame.width - 1 - frame.width / 10
        let newest = picture.brightestRow(x: plotRight - 10)
        #expect(abs(Double(newest.row) - picture.row(ofHertz: 4000)) <= step && newest.luminance > 100, "\(newest) vs \(picture.row(ofHertz: 4000)), \(errors)")
        let columns = (picture.plotX ..< plotRight).map { picture.brightestRow(x: $0) }.filter { $0.luminance > 100 }
        let atOne = columns.filter { abs(Double($0.row) - picture.row(ofHertz: 1000)) <= step }
        let atFour = columns.filter { abs(Double($0.row) - picture.row(ofHertz: 4000)) <= step }
        #expect(atOne.count > 50 && atFour.count > 50, "1 kHz in \(atOne.count) columns, 4 kHz in \(atFour.count)")
        #expect(atOne.count + atFour.count >= columns.count * 9 / 10, "lines elsewhere: \(columns.count) lit columns")
    }

    @Test("live: a rising sweep draws a line that rises")
    func liveSweep() throws {
        let (frame, _) = try Self.live(["--mode", "spectrogram"], playing: { folder in
            // 100 Hz to 10 kHz in 4 s, exponentially: the phase of f(t) = 100 * 100^(t/4).
            try Self.makeAudio(folder + "/sweep.wav", ["-f", "lavfi", "-i",
                "aevalsrc=0.5*sin(2*PI*100*4/log(100)*(pow(100\\,t/4)-1)):s=48000:d=4.5", "-ac", "2"])
            return folder + "/sweep.wav"
        }, seconds: 4.6)
        let picture = try Picture(frame)
        let plotRight = frame.width - 1 - frame.width / 10
        let lit = stride(from: picture.plotX, to: plotRight, by: 8).map { picture.brightestRow(x: $0) }.filter { $0.luminance > 100 }
        #expect(lit.count > 40)
        // Rising: the brightest row goes up (smaller y) from left to right, and far.
        let rises = zip(lit, lit.dropFirst()).filter { $1.row <= $0.row + 1 }.count
        #expect(rises >= (lit.count - 1) * 9 / 10, "\(lit.map(\.row))")
        #expect((lit.first?.row ?? 0) - (lit.last?.row ?? 0) > Int(picture.labelStep * 3), "\(lit.map(\.row))")
    }

    @Test("decibar spectrogram: both tones of a file at their rows, the change at its column (within 1 %)")
    func fileTwoTones() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.twoTones(folder + "/tones.flac", first: 5, second: 5)
        let result = try TestRig.run(TestRig.decibar, ["spectrogram", folder + "/tones.flac", "-o", folder + "/tones.png"])
        #expect(result.status == 0 && result.error.isEmpty, "\(result.error)")
        let frame = try Self.decode(folder + "/tones.png")
        #expect(frame.width == 1280 && frame.height == 720)
        let picture = try Picture(frame)
        let one = Int(picture.row(ofHertz: 1000).rounded()), four = Int(picture.row(ofHertz: 4000).rounded())
        func level(_ x: Int, _ row: Int) -> Int { (row - 2 ... row + 2).map { Picture.luminance(frame.pixel(x: x, y: $0)) }.max() ?? 0 }
        // The plot's columns: where either line is lit.
        let lit = (picture.plotX ..< frame.width).filter { max(level($0, one), level($0, four)) > 100 }
        let (left, right) = (try #require(lit.first), try #require(lit.last))
        #expect(left - picture.plotX <= 2, "the plot starts at the ticks")
        let change = try #require((left ... right).first { level($0, four) > level($0, one) })
        let expected = Double(left) + 0.5 * Double(right - left)
        #expect(abs(Double(change) - expected) <= 0.01 * Double(right - left), "change at \(change), expected \(expected)")
        // Each line at its row: the brightest row a quarter and three quarters across.
        let firstHalf = picture.brightestRow(x: left + (right - left) / 4), secondHalf = picture.brightestRow(x: left + 3 * (right - left) / 4)
        #expect(abs(Double(firstHalf.row) - picture.row(ofHertz: 1000)) <= 2, "\(firstHalf) vs \(picture.row(ofHertz: 1000))")
        #expect(abs(Double(secondHalf.row) - picture.row(ofHertz: 4000)) <= 2, "\(secondHalf) vs \(picture.row(ofHertz: 4000))")
    }

    /// The brightest row of column `x` between `top` and `bottom`.
    static func brightestRow(_ frame: RenderTests.Frame, x: Int, top: Int, bottom: Int) -> Int {
        (top ..< bottom).max { Picture.luminance(frame.pixel(x: x, y: $0)) < Picture.luminance(frame.pixel(x: x, y: $1)) } ?? top
    }

    @Test("--scrubber spectrogram: the scrubber holds the file's spectrogram (1 kHz low on the left, 4 kHz higher on the right), in render and in play")
    func scrubberSpectrogram() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.twoTones(folder + "/tones.wav", first: 3, second: 3)
        let (width, height) = (640, 360)
        let layout = PlayLayout(width: width, height: height)
        func check(_ frame: RenderTests.Frame, _ what: String) {
            let (top, bottom) = (layout.scrubberTop, layout.scrubberTop + layout.scrubberHeight)
            let left = Self.brightestRow(frame, x: layout.scrubberLeft + layout.scrubberWidth / 4, top: top, bottom: bottom)
            let right = Self.brightestRow(frame, x: layout.scrubberLeft + 3 * layout.scrubberWidth / 4, top: top, bottom: bottom)
            // 4 kHz is two octaves above 1 kHz: 0.2 of the log axis's height.
            let expected = 0.2 * Double(layout.scrubberHeight)
            #expect(abs(Double(left - right) - expected) <= 4, "\(what): 1 kHz at \(left), 4 kHz at \(right)")
        }
        let out = folder + "/frames/"
        let rendered = try TestRig.run(TestRig.decibar, ["render", folder + "/tones.wav", "--scrubber", "spectrogram", "--size", "\(width)x\(height)",
                                                         "--fps", "2", "-o", out])
        #expect(rendered.status == 0, "\(rendered.error)")
        check(try Self.decode(out + "frame-000003.png"), "render")
        let server = try PrivatePulseServer()
        let png = server.directory + "/play.png"
        let play = try RunningCommand(["play", folder + "/tones.wav", "--scrubber", "spectrogram", "--size", "\(width)x\(height)",
                                       "--exit-after", "2", "--screenshot", png], environment: server.environment)
        #expect(play.waitForExit(timeout: 20) == 0, "\(play.standardError)")
        check(try Self.decode(png), "play")
    }

    @Test("decibar spectrogram: a missing, empty or corrupt file, or a bad -o, gives one line and status 1, and writes nothing")
    func badFiles() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/empty.flac", contents: Data()))
        #expect(FileManager.default.createFile(atPath: folder + "/noise.mp3", contents: Data(pseudoRandomBytes(count: 20000, seed: 5))))
        for (name, reason) in [("absent.wav", "no such file"), ("empty.flac", "file is empty"), ("noise.mp3", "not an audio file")] {
            let result = try TestRig.run(TestRig.decibar, ["spectrogram", folder + "/" + name, "-o", folder + "/out.png"])
            #expect(result.status == 1)
            #expect(result.error.hasPrefix("decibar: \(folder)/\(name): \(reason)"), "\(result.error)")
            #expect(result.error.split(separator: "\n").count == 1)
        }
        let wrongKind = try TestRig.run(TestRig.decibar, ["spectrogram", folder + "/empty.flac", "-o", folder + "/out.jpg"])
        #expect(wrongKind.status != 0 && wrongKind.error.contains("-o must end in .png"), "\(wrongKind.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["empty.flac", "noise.mp3"])
    }

    /// The scope's points: lit, colored pixels in its square (the left part, as tall as the picture).
    static func scopePoints(_ frame: RenderTests.Frame) -> [(x: Int, y: Int)] {
        var points: [(Int, Int)] = []
        for y in 0 ..< frame.height {
            for x in 0 ..< min(frame.width, frame.height) {
                let (r, g, b) = frame.pixel(x: x, y: y)
                if Int(max(r, g, b)) - Int(min(r, g, b)) > 60 && max(r, g, b) > 90 { points.append((x, y)) }
            }
        }
        return points
    }

    @Test("scope: a mono tone draws a vertical line, the same tone with one side inverted a horizontal one",
          arguments: [("mono", "0.5*sin(2*PI*440*t)|0.5*sin(2*PI*440*t)"), ("inverted", "0.5*sin(2*PI*440*t)|-0.5*sin(2*PI*440*t)")])
    func scopeLines(name: String, expression: String) throws {
        let (frame, errors) = try Self.live(["--mode", "scope"], playing: { folder in
            try Self.makeAudio(folder + "/\(name).wav", ["-f", "lavfi", "-i", "aevalsrc=\(expression):s=48000:d=5"])
            return folder + "/\(name).wav"
        }, seconds: 2.5)
        let points = Self.scopePoints(frame)
        #expect(points.count > 50, "\(errors)")
        let xs = points.map(\.x), ys = points.map(\.y)
        let across = (xs.max() ?? 0) - (xs.min() ?? 0), up = (ys.max() ?? 0) - (ys.min() ?? 0)
        if name == "mono" {
            #expect(across <= 4 && up > 100, "across \(across), up \(up)")
        } else {
            #expect(up <= 4 && across > 100, "across \(across), up \(up)")
        }
    }

    @Test("render is frame-exact: the spectrogram at 2 s is the same picture at 1, 5 and 25 frames a second")
    func frameExact() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.makeAudio(folder + "/sweep.wav", ["-f", "lavfi", "-i", "aevalsrc=0.4*sin(2*PI*(200+400*t)*t)|0.4*sin(2*PI*300*t):s=48000:d=2.5"])
        var pictures: [Data] = []
        for (fps, frame) in [(1, 2), (5, 10), (25, 50)] {
            let out = folder + "/fps\(fps)/"
            let result = try TestRig.run(TestRig.decibar, ["render", folder + "/sweep.wav", "--mode", "spectrogram", "--size", "480x270",
                                                           "--fps", String(fps), "-o", out])
            #expect(result.status == 0, "\(result.error)")
            pictures.append(try Data(contentsOf: URL(fileURLWithPath: out + String(format: "frame-%06d.png", frame + 1))))
        }
        #expect(pictures[0] == pictures[1] && pictures[1] == pictures[2], "the frame at 2 s depends on the frame rate")
    }

    @Test("render: spectrogram, scope and a Shadertoy shader give the same frames twice",
          arguments: [["--mode", "spectrogram"], ["--mode", "scope"], ["--shader", "SHADER"]])
    func repeatable(arguments: [String]) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.makeAudio(folder + "/music.wav", ["-f", "lavfi", "-i", "aevalsrc=0.3*sin(2*PI*220*t)*(1+sin(2*PI*2*t))|0.3*sin(2*PI*330*t+t*t):s=48000:d=3"])
        try ShadertoyTests.rowsShader.write(toFile: folder + "/rows.glsl", atomically: true, encoding: .utf8)
        let given = arguments.map { $0 == "SHADER" ? folder + "/rows.glsl" : $0 }
        var renders: [[Data]] = []
        for run in 0 ..< 2 {
            let out = folder + "/run\(run)/"
            let result = try TestRig.run(TestRig.decibar, ["render", folder + "/music.wav", "--size", "480x270", "--fps", "20", "-o", out] + given)
            #expect(result.status == 0, "\(result.error)")
            let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            renders.append(try names.map { try Data(contentsOf: URL(fileURLWithPath: out + $0)) })
        }
        #expect(renders[0].count == 60)
        let differing = zip(renders[0], renders[1]).filter { $0 != $1 }.count
        #expect(differing == 0 && renders[0].count == renders[1].count, "\(differing) frames differ")
        // And something is drawn that moves.
        #expect(Set(renders[0]).count > 30)
    }
}

/// Radial bars in a render, with a track's cover art in their middle.
@Suite("Radial layout with cover art", .enabled(if: TestRig.canRun(needing: .display), "needs Mesa (make test has it)"))
struct RadialCoverTests {
    @Test("render --layout radial of a file with cover art: the cover fills the middle, the bars go round it, the same twice")
    func coverInTheMiddle() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A pure red cover on a tone.
        try SpectrogramTests.makeAudio(folder + "/cover.png", ["-f", "lavfi", "-i", "color=c=red:s=300x300:d=1", "-frames:v", "1"])
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=f=440:r=48000:d=3", "-i", folder + "/cover.png",
                                              "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-c:v", "png", "-disposition:v", "attached_pic",
                                              "-id3v2_version", "3", folder + "/song.mp3"])
        #expect(made.status == 0, "\(made.error)")
        var frames: [Data] = []
        for run in 0 ..< 2 {
            let out = folder + "/frames\(run)/"
            let result = try TestRig.run(TestRig.decibar, ["render", folder + "/song.mp3", "--layout", "radial", "--size", "640x480", "--fps", "10",
                                                           "--duration", "2", "-o", out])
            #expect(result.status == 0, "\(result.error)")
            frames.append(try Data(contentsOf: URL(fileURLWithPath: out + "frame-000015.png")))
        }
        #expect(frames[0] == frames[1], "two renders differ")
        let image = try PNGImage.decode(Array(frames[0]))
        // The bars' area is above the scrubber: find its middle from the red disc itself.
        var red: [(x: Int, y: Int)] = []
        for y in 0 ..< image.height {
            for x in 0 ..< image.width {
                let offset = (y * image.width + x) * 4
                if image.pixels[offset] > 230 && image.pixels[offset + 1] < 30 && image.pixels[offset + 2] < 30 { red.append((x, y)) }
            }
        }
        let xs = red.map(\.x), ys = red.map(\.y)
        let diameter = Double((xs.max() ?? 0) - (xs.min() ?? 0) + 1)
        #expect(diameter > 100 && abs(Double((ys.max() ?? 0) - (ys.min() ?? 0) + 1) - diameter) <= 3, "the red disc: \(red.count) pixels")
        // A disc, not a square: its area is pi/4 of its bounding square's.
        #expect(abs(Double(red.count) / (diameter * diameter) - Double.pi / 4) < 0.03)
        #expect(abs(Double((xs.min() ?? 0) + (xs.max() ?? 0)) / 2 - 320) <= 2, "centered across")
        // Bars all round it: pixels of neither the background nor the cover in each of 16 sectors just outside the disc.
        let frame = try RenderTests.Frame(pixels: image.pixels, width: image.width, height: image.height, bottomUp: false)
        let (cx, cy) = (Double((xs.min() ?? 0) + (xs.max() ?? 0)) / 2, Double((ys.min() ?? 0) + (ys.max() ?? 0)) / 2)
        var sectors = Set<Int>()
        for y in 0 ..< image.height {
            for x in 0 ..< image.width where !frame.isBackground(x: x, y: y, theme: .default) {
                let dx = Double(x) - cx, dy = Double(y) - cy, radius = (dx * dx + dy * dy).squareRoot()
                guard radius > diameter / 2 + 3 && radius < diameter else { continue }
                let angle = atan2(dx, -dy) < 0 ? atan2(dx, -dy) + 2 * Double.pi : atan2(dx, -dy)
                sectors.insert(min(15, Int(angle / (2 * Double.pi) * 16)))
            }
        }
        #expect(sectors == Set(0 ..< 16), "sectors with bars: \(sectors.sorted())")
    }
}
