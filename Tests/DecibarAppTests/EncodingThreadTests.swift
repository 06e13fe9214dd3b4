import DecibarAudio
import DecibarCore
import Foundation
import Testing
@testable import DecibarApp

/// The MP4 `render` encodes in the process, written from the render thread through the encoding
/// thread and read back with decibar's own decoders.
@Suite struct EncodingThreadTests {
    static let width = 200, height = 120, fps = 10, rate = 44100

    static func settings(seconds: Int) -> VideoFileEncoder.Settings {
        VideoFileEncoder.Settings(width: width, height: height, fps: fps, audioSampleRate: rate, audioChannelCount: 2,
                                  audioFrameLimit: Int64(seconds * rate))
    }

    /// A flat gray frame: luma `luma` everywhere, chroma neutral.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer, luma: UInt8) {
        let pixels = width * height
        buffer.baseAddress!.initializeMemory(as: UInt8.self, repeating: luma, count: pixels)
        (buffer.baseAddress! + pixels).initializeMemory(as: UInt8.self, repeating: 128, count: pixels / 2)
    }

    @Test("30 frames at 10 fps and 4 s of 44.1 kHz stereo: a 200x120 video (coded 256 wide, cropped) of 30 frames getting brighter, and exactly 3 s of audio from its first sample, the fourth second cut; with one index first or in fragments",
          arguments: [false, true])
    func writesAndReadsBack(fragmented: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/out.mp4"
        var settings = Self.settings(seconds: 3)
        settings.fragmented = fragmented
        let thread = EncodingThread(encoder: try VideoFileEncoder(path: path, settings: settings),
                                    frameBytes: NV12Frame.byteCount(width: Self.width, height: Self.height))
        // Audio ahead of the frames, as the render decodes it: a 440 Hz tone in blocks of 1000 frames.
        var block = [Float](repeating: 0, count: 2000)
        for start in stride(from: 0, to: 4 * Self.rate, by: 1000) {
            for frame in 0 ..< 1000 {
                let value = Float(0.5 * sin(2 * Double.pi * 440 * Double(start + frame) / Double(Self.rate)))
                block[frame * 2] = value
                block[frame * 2 + 1] = value
            }
            block.withUnsafeBufferPointer { thread.writeAudio($0) }
        }
        for index in 0 ..< 30 { thread.writeFrame { Self.fill($0, luma: UInt8(20 + index * 7)) } }
        #expect(thread.finish() == nil)

        // Fragments (moof boxes) or one index (moov) before the samples (mdat).
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let moov = bytes.range(of: Data("moov".utf8))!.lowerBound, mdat = bytes.range(of: Data("mdat".utf8))!.lowerBound
        #expect(moov < mdat)
        #expect((bytes.range(of: Data("moof".utf8)) != nil) == fragmented)

        let audio = try AudioFileDecoder(path: path)
        var frames = 0
        var peak: Float = 0
        var opening: [Float] = []
        while try audio.read({ samples in
            frames += samples.count / 2
            peak = max(peak, samples.max() ?? 0)
            opening += samples.prefix(max(0, 1024 - opening.count))
        }) {}
        #expect(audio.sampleRate == Self.rate && audio.channelCount == 2 && audio.codecName == "aac")
        #expect(frames == 3 * Self.rate, "\(frames) frames of audio")
        #expect(abs(peak - 0.5) < 0.05, "peak \(peak)")
        // The tone from the first sample, not 1024 samples of the encoder's priming (near silence).
        let openingRMS = (opening.map { $0 * $0 }.reduce(0, +) / Float(opening.count)).squareRoot()
        #expect(openingRMS > 0.3, "RMS \(openingRMS) over the first 512 frames")

        let video = try VideoFileDecoder(path: path)
        #expect(video.width == Self.width && video.height == Self.height && video.codecName == "h264")
        var picture = Picture()
        var lumas: [Int] = []
        while try video.read(into: &picture, width: Self.width, height: Self.height) {
            // The middle pixel's green, which follows the luma for a gray picture.
            lumas.append(Int(picture.pixels[(Self.height / 2 * Self.width + Self.width / 2) * 4 + 1]))
        }
        #expect(lumas.count == 30, "\(lumas.count) frames")
        #expect(zip(lumas, lumas.dropFirst()).allSatisfy { $0 < $1 }, "\(lumas)")
    }

    @Test("a disk that is full: the render thread gets one line naming it, and the encoding thread ends")
    func fullDisk() throws {
        do {
            let thread = EncodingThread(encoder: try VideoFileEncoder(path: "/dev/full", settings: Self.settings(seconds: 20)),
                                        frameBytes: NV12Frame.byteCount(width: Self.width, height: Self.height))
            for index in 0 ..< 200 { thread.writeFrame { Self.fill($0, luma: UInt8(index % 200)) } }
            let failure = thread.finish()
            #expect(failure?.contains("No space left") == true, "\(failure ?? "no failure")")
            #expect(failure.map { !$0.contains("\n") } ?? false)
        } catch {
            #expect(error.reason.contains("No space left"), "\(error.reason)")
        }
    }

    @Test("abandoned half-way, or dropped without a word: the thread stops and the file is closed, not finished")
    func abandoned() throws {
        let folder = try TemporaryFolder()
        for drop in [false, true] {
            let path = folder.path + "/\(drop).mp4"
            var thread: EncodingThread? = EncodingThread(encoder: try VideoFileEncoder(path: path, settings: Self.settings(seconds: 10)),
                                                         frameBytes: NV12Frame.byteCount(width: Self.width, height: Self.height))
            for index in 0 ..< 40 { thread?.writeFrame { Self.fill($0, luma: UInt8(index)) } }
            if drop { thread = nil } else { thread?.abandon() }
            // No index was written: the file does not open as a video.
            #expect(throws: AudioFileError.self) { _ = try VideoFileDecoder(path: path) }
        }
    }
}
