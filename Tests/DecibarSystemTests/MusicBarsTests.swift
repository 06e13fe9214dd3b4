import DecibarCore
import Foundation
import Testing

/// The default bars on music, as rendered: they must move, not sit pinned at the top, whatever the
/// master's loudness; quiet tones still show and silence still empties the window.
@Suite("Bars on music", .enabled(if: TestRig.canRun(needing: .ffmpeg)))
struct MusicBarsTests {
    static let (width, height, fps, bars) = (480, 270, 10, 48)
    let headless = ["DISPLAY": "", "XDG_CACHE_HOME": NSTemporaryDirectory() + "decibar-music-test-cache"]

    /// Each bar's drawn height per frame, as a share of a full bar (0 at its resting height, 1 at the
    /// top), read from the pixels of `decibar render` at 10 fps in the default bars mode. PNG frames,
    /// not a video: lossless, and a third of the time (no encoder).
    func renderedHeights(of input: String, in folder: String, extra: [String] = []) throws -> [[Double]] {
        let frames = folder + "/frames-\(UUID().uuidString)/"
        defer { try? FileManager.default.removeItem(atPath: frames) }
        let rendered = try TestRig.run(TestRig.decibar, ["render", input, "-o", frames, "--fps", "\(Self.fps)",
                                                         "--size", "\(Self.width)x\(Self.height)", "--bars", "\(Self.bars)"] + extra,
                                       environment: headless)
        #expect(rendered.status == 0, "\(rendered.error)")
        let barsHeight = PlayLayout(width: Self.width, height: Self.height).barsHeight
        let gray = folder + "/bars.gray"
        let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-framerate", "\(Self.fps)", "-i", frames + "frame-%06d.png", "-vf",
                                                 "format=gray,crop=\(Self.width):\(barsHeight):0:0", "-f", "rawvideo", gray])
        #expect(decoded.status == 0, "\(decoded.error)")
        let layout = BarLayout()
        let full = layout.rects(for: Array(repeating: 1, count: Self.bars), width: Self.width, height: barsHeight)
        let empty = layout.rects(for: Array(repeating: 0, count: Self.bars), width: Self.width, height: barsHeight)
        let pixels = try #require(FileManager.default.contents(atPath: gray))
        let frameSize = Self.width * barsHeight
        #expect(pixels.count % frameSize == 0, "\(pixels.count) bytes of \(frameSize)-byte frames")
        return pixels.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [[Double]] in
            (0 ..< pixels.count / frameSize).map { frame in
                (0 ..< Self.bars).map { bar in
                    let x = full[bar].x + full[bar].width / 2
                    var lit = 0
                    for y in full[bar].y ..< full[bar].y + full[bar].height where bytes[frame * frameSize + y * Self.width + x] > UInt8(40) {
                        lit += 1
                    }
                    let rest = empty[bar].height
                    return max(0, Double(lit - rest) / Double(full[bar].height - rest))
                }
            }
        }
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func standardDeviation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    @Test("in every song, fewer than 20 % of the bars sit at the top (median) and the center bars move (sd >= 10 % of the height)",
          arguments: MusicLibrary.songs)
    func barsMove(song: MusicLibrary.Song) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = try renderedHeights(of: try MusicLibrary.path(of: song), in: folder)
        #expect(abs(frames.count - 64 * Self.fps) <= 1)
        let atTop = frames.map { heights in Double(heights.filter { $0 >= 0.95 }.count) / Double(heights.count) }
        let center = frames.map { ($0[Self.bars / 2 - 1] + $0[Self.bars / 2]) / 2 }
        let share = Self.median(atTop), spread = Self.standardDeviation(center)
        print("bars on music, \(song): median share at the top \(Int((share * 100).rounded())) %, center bars' sd \(Int((spread * 100).rounded())) % of the height")
        #expect(share < 0.2, "\(song): median share of bars at the top \(share)")
        #expect(spread >= 0.1, "\(song): center bars' standard deviation \(spread)")
        // The plain mapping (the same music, --no-autosens) is what pinned the bars: the loud masters
        // show it, so this measure would have caught it.
        if song.lufs > -20 {
            let plain = try renderedHeights(of: try MusicLibrary.path(of: song), in: folder, extra: ["--no-autosens"])
            let plainShare = Self.median(plain.map { heights in Double(heights.filter { $0 >= 0.95 }.count) / Double(heights.count) })
            #expect(plainShare > 0.5, "\(song): without automatic sensitivity only \(plainShare) of the bars sat at the top")
        }
    }

    @Test("a -40 dBFS sine stands visibly above the floor after 5 s")
    func quietSine() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/quiet.wav"
        try TestRig.makeTone(at: input, amplitude: 0.01, seconds: 8)
        let frames = try renderedHeights(of: input, in: folder)
        let frame = frames[5 * Self.fps]
        let center = (frame[Self.bars / 2 - 1] + frame[Self.bars / 2]) / 2
        #expect(center >= 0.25, "center bars at \(center) of the height after 5 s")
    }

    @Test("digital silence after music empties every bar within 1 s")
    func silenceEmpties() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/then-silence.wav"
        let song = try MusicLibrary.path(of: MusicLibrary.songs[2])
        // The loudest song's chorus (from 24 s), then 3 s of zeros.
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-ss", "24", "-t", "6", "-i", song,
                                              "-af", "apad=pad_dur=3", "-c:a", "pcm_f32le", input])
        #expect(made.status == 0, "\(made.error)")
        let frames = try renderedHeights(of: input, in: folder)
        let loudBefore = frames[5 * Self.fps].max() ?? 0
        #expect(loudBefore > 0.5, "the chorus drew its tallest bar at only \(loudBefore)")
        // Silence starts at 6 s; from 7 s on, every bar rests (within one pixel of its resting height).
        let onePixel = 1.5 / Double(PlayLayout(width: Self.width, height: Self.height).barsHeight)
        for (index, heights) in frames.enumerated().dropFirst(7 * Self.fps) {
            #expect(heights.allSatisfy { $0 <= onePixel }, "frame \(index): \(heights.max() ?? 0)")
        }
    }
}
