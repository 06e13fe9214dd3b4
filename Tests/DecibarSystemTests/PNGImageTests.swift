import DecibarRender
import Foundation
import Testing

/// PNG files through libpng: what is written reads back exactly, the right way up, and other
/// programs (ffmpeg) read it too.
@Suite("PNG images")
struct PNGImageTests {
    /// Deterministic RGBA: a gradient with some noise and alpha, `width`×`height`.
    func pixels(width: Int, height: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed
        return (0 ..< width * height * 4).map { index in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let pixel = index / 4, channel = index % 4
            let base = channel == 3 ? 255 - (pixel % 7) * 20 : (pixel * (channel + 1)) % 256
            return UInt8(truncatingIfNeeded: base ^ Int(state >> 61))
        }
    }

    @Test("RGBA round-trips exactly, from 1×1 to a 1280×720 frame", arguments: [(1, 1), (3, 2), (97, 61), (1280, 720)])
    func roundTrip(width: Int, height: Int) throws {
        let original = pixels(width: width, height: height)
        let png = try PNGImage.encode(rgba: original, width: width, height: height, flipVertically: false)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try PNGImage.decode(png)
        #expect(decoded.width == width && decoded.height == height)
        let same = decoded.pixels == original  // outside #expect: a failure would diff every byte
        #expect(same)
    }

    @Test("rows given bottom first (as OpenGL reads them) come out top first")
    func flipped() throws {
        // Two rows: bottom red, top blue, as glReadPixels returns them (bottom row first).
        let bottomFirst: [UInt8] = [255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255]
        let decoded = try PNGImage.decode(try PNGImage.encode(rgba: bottomFirst, width: 2, height: 2, flipVertically: true))
        #expect(Array(decoded.pixels.prefix(4)) == [0, 0, 255, 255], "the top row should be blue")
        #expect(Array(decoded.pixels.suffix(4)) == [255, 0, 0, 255], "the bottom row should be red")
    }

    @Test("a flat screenshot compresses to under a twentieth of its raw size, and ffmpeg reads it")
    func compressionAndInterop() throws {
        let width = 640, height = 360
        var flat = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: flat.count, by: 4) {
            let y = index / 4 / width
            flat[index] = 20; flat[index + 1] = 24; flat[index + 2] = y < 200 ? 40 : 200; flat[index + 3] = 255
        }
        let png = try PNGImage.encode(rgba: flat, width: width, height: height, flipVertically: false)
        #expect(png.count < flat.count / 20, "\(png.count) bytes")
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(png).write(to: URL(fileURLWithPath: folder + "/flat.png"))
        let decoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", folder + "/flat.png", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        #expect(decoded.status == 0 && [UInt8](decoded.output) == flat)
    }

    @Test("damaged or foreign bytes are an error, not a crash")
    func damaged() throws {
        var png = try PNGImage.encode(rgba: pixels(width: 16, height: 16), width: 16, height: 16, flipVertically: false)
        #expect(throws: RenderError.self) { try PNGImage.decode(Array(png.prefix(20))) }
        #expect(throws: RenderError.self) { try PNGImage.decode(Array("not a png at all".utf8)) }
        png[png.count / 2] ^= 0xFF
        #expect(throws: RenderError.self) { try PNGImage.decode(png) }
    }
}
