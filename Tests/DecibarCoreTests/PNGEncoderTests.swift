import Foundation
import Testing
@testable import DecibarCore

@Suite("PNG encoder")
struct PNGEncoderTests {
    // MARK: - Checksums

    @Test func crc32MatchesPublishedCheckValues() {
        #expect(PNGEncoder.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGEncoder.crc32(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        #expect(PNGEncoder.crc32([UInt8]()) == 0)
    }

    @Test func adler32MatchesPublishedCheckValues() {
        #expect(Deflate.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Deflate.adler32([UInt8]()) == 1)
    }

    @Test func adler32DefersModuloWithoutOverflow() {
        // All-0xFF bytes push the running sums fastest; a reference that reduces after every
        // byte must agree across several 5552-byte runs.
        for bytes in [[UInt8](repeating: 0xFF, count: 100_000), SeededGenerator.bytes(count: 20_000, seed: 7)] {
            var low: UInt32 = 1
            var high: UInt32 = 0
            for byte in bytes {
                low = (low + UInt32(byte)) % 65_521
                high = (high + low) % 65_521
            }
            #expect(Deflate.adler32(bytes) == high << 16 | low)
        }
    }

    @Test func zlibStreamHasValidHeaderAndTrailingAdler32() {
        let input = Array("Wikipedia".utf8)
        let stream = input.withUnsafeBufferPointer { Deflate.zlibCompress($0) }
        #expect(stream[0] & 0x0F == 8, "compression method must be deflate")
        #expect((UInt16(stream[0]) << 8 | UInt16(stream[1])) % 31 == 0, "header check bits")
        #expect(Array(stream.suffix(4)) == [0x11, 0xE6, 0x03, 0x98])
    }

    // MARK: - File structure

    @Test func fileHasSignatureHeaderAndValidChunks() throws {
        let png = PNGEncoder.encode(rgba: Images.smallDistinct, width: 3, height: 2)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

        let chunks = try #require(Chunk.parse(png))
        #expect(chunks.first?.type == "IHDR")
        #expect(chunks.last?.type == "IEND")
        #expect(chunks.last?.data.isEmpty == true)
        #expect(chunks.dropFirst().dropLast().allSatisfy { $0.type == "IDAT" })
        #expect(chunks.allSatisfy { $0.storedCRC == PNGEncoder.crc32(Array($0.type.utf8) + $0.data) })

        let header = try #require(chunks.first?.data)
        // Width 3, height 2, bit depth 8, color type 6, deflate, adaptive filtering, no interlace.
        #expect(header == [0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0])
    }

    @Test func decoderRejectsACorruptedChunk() throws {
        // Guards the round-trip tests: they only vouch for our CRCs if ffmpeg checks them.
        var png = PNGEncoder.encode(rgba: Images.smallDistinct, width: 3, height: 2)
        _ = try FFmpeg.decode(png)
        png[8 + 8] ^= 0x01 // first byte of the IHDR type field
        #expect(throws: FFmpeg.DecodeError.self) { try FFmpeg.decode(png) }
    }

    // MARK: - Round trips through ffmpeg

    @Test func smallImageRoundTripsExactly() throws {
        let png = PNGEncoder.encode(rgba: Images.smallDistinct, width: 3, height: 2)
        #expect(try FFmpeg.decode(png) == Images.smallDistinct)
    }

    @Test func singlePixelRoundTrips() throws {
        let pixel: [UInt8] = [12, 34, 56, 78]
        #expect(try FFmpeg.decode(PNGEncoder.encode(rgba: pixel, width: 1, height: 1)) == pixel)
    }

    @Test func mixedContentRoundTripsExactly() throws {
        let pixels = Images.mixed(width: 320, height: 240)
        let png = PNGEncoder.encode(rgba: pixels, width: 320, height: 240)
        #expect(try FFmpeg.decode(png) == pixels)
    }

    @Test func bottomUpRowsAreFlipped() throws {
        let width = 320, height = 240
        let topDown = Images.mixed(width: width, height: height)
        var bottomUp: [UInt8] = []
        for y in (0..<height).reversed() {
            bottomUp += topDown[(y * width * 4)..<((y + 1) * width * 4)]
        }
        let png = PNGEncoder.encode(rgba: bottomUp, width: width, height: height, flipVertically: true)
        #expect(try FFmpeg.decode(png) == topDown)
    }

    @Test func unsafeBufferOverloadMatchesArrayOverload() {
        let pixels = Images.mixed(width: 64, height: 48)
        let fromBuffer = pixels.withUnsafeBufferPointer {
            PNGEncoder.encode(rgba: $0, width: 64, height: 48, flipVertically: true)
        }
        #expect(fromBuffer == PNGEncoder.encode(rgba: pixels, width: 64, height: 48, flipVertically: true))
    }

    @Test(arguments: [8192, 8193])
    func repeatsAtTheWindowEdgeRoundTrip(periodInPixels: Int) throws {
        // One row holding the same noise twice. Every filter keeps the repeat, so the filtered
        // row repeats at 4 * period bytes: exactly the 32 KiB window (the longest legal distance)
        // or just beyond it (must not be referenced at all).
        let block = SeededGenerator.bytes(count: periodInPixels * 4, seed: 11)
        let pixels = block + block
        let png = PNGEncoder.encode(rgba: pixels, width: 2 * periodInPixels, height: 1)
        #expect(try FFmpeg.decode(png) == pixels)
        if periodInPixels * 4 <= 32_768 {
            #expect(png.count < pixels.count * 6 / 10, "the second copy should cost almost nothing")
        }
    }

    @Test func incompressibleNoiseRoundTripsWithBoundedOverhead() throws {
        let pixels = SeededGenerator.bytes(count: 200 * 150 * 4, seed: 3)
        let png = PNGEncoder.encode(rgba: pixels, width: 200, height: 150)
        #expect(try FFmpeg.decode(png) == pixels)
        // Filter bytes plus stored-block and chunk framing stay well below 2 %.
        #expect(png.count < pixels.count + pixels.count / 50)
    }

    // MARK: - Compression

    @Test func screenshotCompressesBelowOneTwentiethOfRawSize() throws {
        let width = 1280, height = 720
        let pixels = Images.screenshot(width: width, height: height)
        let png = PNGEncoder.encode(rgba: pixels, width: width, height: height)
        #expect(png.count < pixels.count / 20, "got \(png.count) bytes for \(pixels.count) raw")
        #expect(try FFmpeg.decode(png) == pixels)
    }
}

// MARK: - Helpers

// Nested so the helper names cannot collide with other test files in the target.
extension PNGEncoderTests {
    /// SplitMix64: tiny, deterministic, and good enough to defeat a compressor.
    private struct SeededGenerator: RandomNumberGenerator {
        private var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }

        static func bytes(count: Int, seed: UInt64) -> [UInt8] {
            var generator = SeededGenerator(seed: seed)
            return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        }
    }

    private enum Images {
        /// Six different colors, alpha included, so any swapped row, pixel or channel shows up.
        static let smallDistinct: [UInt8] = [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
            17, 34, 51, 68, 250, 128, 3, 0, 1, 2, 3, 200,
        ]

        /// Horizontal and vertical gradients, flat areas, and a block of noise with varying alpha.
        static func mixed(width: Int, height: Int) -> [UInt8] {
            var generator = SeededGenerator(seed: 2024)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 4
                    let pixel: [UInt8]
                    if y < height / 3 {
                        pixel = [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 3 % 256), 90, 255]
                    } else if x < width / 2 {
                        pixel = y < height * 2 / 3 ? [20, 24, 33, 255] : [UInt8(y % 256), 200, UInt8(255 - y % 256), 128]
                    } else {
                        let noise = generator.next()
                        pixel = (0..<4).map { UInt8(truncatingIfNeeded: noise >> ($0 * 8)) }
                    }
                    pixels.replaceSubrange(index..<(index + 4), with: pixel)
                }
            }
            return pixels
        }

        /// What the visualizer draws: a flat background and bars filled with vertical gradients.
        static func screenshot(width: Int, height: Int) -> [UInt8] {
            let barCount = 64
            let barPitch = width / barCount
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 4
                    let bar = x / barPitch
                    let barTop = height - height * ((bar * 37 % barCount) + 8) / 80
                    var pixel: [UInt8] = [18, 20, 28, 255]
                    if x % barPitch < barPitch - 4 && y >= barTop {
                        let shade = (y - barTop) * 255 / max(1, height - barTop)
                        pixel = [UInt8(255 - shade / 2), UInt8(60 + shade * 3 / 4), UInt8(40 + shade / 3), 255]
                    }
                    pixels.replaceSubrange(index..<(index + 4), with: pixel)
                }
            }
            return pixels
        }
    }

    private struct Chunk {
        var type: String
        var data: [UInt8]
        var storedCRC: UInt32

        /// Splits a PNG after its signature into chunks, or nil if the framing is broken.
        static func parse(_ png: [UInt8]) -> [Chunk]? {
            func bigEndian(at offset: Int) -> UInt32 {
                png[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
            }
            var chunks: [Chunk] = []
            var offset = 8
            while offset < png.count {
                guard offset + 12 <= png.count else { return nil }
                let length = Int(bigEndian(at: offset))
                guard offset + 12 + length <= png.count else { return nil }
                let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
                let data = Array(png[(offset + 8)..<(offset + 8 + length)])
                chunks.append(Chunk(type: type, data: data, storedCRC: bigEndian(at: offset + 8 + length)))
                offset += 12 + length
            }
            return chunks
        }
    }

    private enum FFmpeg {
        struct DecodeError: Error, CustomStringConvertible {
            var description: String
        }

        /// Decodes a PNG to raw RGBA with the ffmpeg program, rejecting any chunk with a bad CRC.
        static func decode(_ png: [UInt8]) throws -> [UInt8] {
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("decibar-png-\(UUID().uuidString).png")
            try Data(png).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }

            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            // ffmpeg skips CRC checks unless asked; "explode" turns a mismatch into a failure.
            process.arguments = [
                "-nostdin", "-v", "error", "-err_detect", "crccheck+explode",
                "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgba", "-",
            ]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            // Drain stdout before waiting: a full pipe would otherwise block ffmpeg forever.
            let decoded = output.fileHandleForReading.readDataToEndOfFile()
            let messages = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw DecodeError(description: "ffmpeg exited with \(process.terminationStatus): "
                    + String(decoding: messages, as: UTF8.self))
            }
            return [UInt8](decoded)
        }
    }
}
