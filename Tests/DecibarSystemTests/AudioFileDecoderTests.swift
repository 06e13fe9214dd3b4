import Foundation
import Testing
import DecibarAudio

// Fixtures are made with the real ffmpeg program from lavfi's `sine` source, which is a
// 1 kHz tone of amplitude 1/8 (4095/32768 in 16 bits). `volume=4` makes that 0.5 (16380/32768,
// the s16 scaling by 4 is exact) and `pan` copies it into every channel unchanged. (`-ac 2` would
// not do: ffmpeg's mono-to-stereo up-mix feeds the center to both sides at 1/√2.)

private let ffmpegPath = "/usr/bin/ffmpeg"

private let sourceRate = 48_000
private let sourceSeconds = 2
private let sourceFrames = sourceRate * sourceSeconds
private let toneHz = 1000.0
private let amplitude = 4.0 / 8.0
private let tone = "sine=frequency=1000:sample_rate=48000:duration=2"
private let stereo = "volume=4,pan=stereo|c0=c0|c1=c0"

/// One container/codec to check, with how exactly it must reproduce the 2 s source.
fileprivate struct FormatCase: Sendable, CustomTestStringConvertible {
    let name: String
    let fileExtension: String
    /// ffmpeg arguments after the inputs (codec choice etc.).
    let encode: [String]
    /// Add a 64×64 video track in front of the audio.
    var withVideo = false
    let codecName: String
    let lossless: Bool
    /// Allowed decoded frame counts for the 96 000-frame source.
    let frames: ClosedRange<Int>
    var testDescription: String { name }

    static let all: [FormatCase] = [
        // PCM and FLAC carry the exact length: no tolerance.
        FormatCase(name: "wav", fileExtension: "wav", encode: [], codecName: "pcm_s16le", lossless: true, frames: exact),
        FormatCase(name: "aiff", fileExtension: "aiff", encode: [], codecName: "pcm_s16be", lossless: true, frames: exact),
        FormatCase(name: "caf", fileExtension: "caf", encode: [], codecName: "pcm_s16be", lossless: true, frames: exact),
        FormatCase(name: "flac", fileExtension: "flac", encode: [], codecName: "flac", lossless: true, frames: exact),
        // Ogg granule positions give the exact end, and the Opus pre-skip (312) is dropped: exact.
        FormatCase(name: "ogg vorbis", fileExtension: "ogg", encode: ["-c:a", "libvorbis"], codecName: "vorbis", lossless: false, frames: exact),
        FormatCase(name: "opus", fileExtension: "opus", encode: ["-c:a", "libopus"], codecName: "opus", lossless: false, frames: exact),
        // The LAME tag holds the encoder delay and padding; allow ±2 ms.
        FormatCase(name: "mp3", fileExtension: "mp3", encode: ["-c:a", "libmp3lame"], codecName: "mp3", lossless: false,
                   frames: (sourceFrames - 96)...(sourceFrames + 96)),
        // Raw ADTS has no place for the encoder delay: 1024 priming frames plus padding up to a
        // whole 1024-frame packet stay in (97 280 here). Allow up to +2048 frames (43 ms).
        FormatCase(name: "aac adts", fileExtension: "aac", encode: ["-c:a", "aac"], codecName: "aac", lossless: false,
                   frames: sourceFrames...(sourceFrames + 2048)),
        // MP4/MOV: the priming is skipped (skip-samples side data) and the end padding is cut at the
        // edit-list duration: exact.
        FormatCase(name: "m4a", fileExtension: "m4a", encode: ["-c:a", "aac"], codecName: "aac", lossless: false, frames: exact),
        FormatCase(name: "mp4 with h264 video", fileExtension: "mp4", encode: ["-c:v", "libx264", "-c:a", "aac"],
                   withVideo: true, codecName: "aac", lossless: false, frames: exact),
        FormatCase(name: "mov with mpeg4 video", fileExtension: "mov", encode: ["-c:v", "mpeg4", "-c:a", "aac"],
                   withVideo: true, codecName: "aac", lossless: false, frames: exact),
    ]

    private static let exact = sourceFrames...sourceFrames
}

/// Per-channel statistics of a whole decode.
private struct Decoded {
    var sampleRate = 0
    var channelCount = 0
    var frames = 0
    var chunks = 0
    var peak: [Double] = []
    var rms: [Double] = []
    /// Periods counted on channel 0, to check the pitch (and so the rate) survived.
    var risingCrossings = 0
    var distinctBuffers = 0
    var framePosition: Int64 = 0
    var estimatedFrameCount: Int64?
    var codecName = ""
}

/// A temporary directory for one test, removed when it is released.
private final class FixtureDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("decibar-decoder-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Runs ffmpeg to make `name` and returns its path.
    func make(_ name: String, _ arguments: [String]) throws -> String {
        let output = path(name)
        try runFFmpeg(["-v", "error", "-y"] + arguments + [output])
        return output
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let output = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: output))
        return output
    }
}

private struct FFmpegFailed: Error, CustomStringConvertible {
    let description: String
}

private func runFFmpeg(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ffmpegPath)
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.startAlone()
    // Read before waiting, so a chatty ffmpeg cannot block on a full pipe.
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitForExit()
    guard process.terminationStatus == 0 else {
        throw FFmpegFailed(description: "ffmpeg \(arguments.joined(separator: " ")) failed: \(text)")
    }
}

private func decodeAll(_ path: String, maxChannels: Int = 8) throws -> Decoded {
    let decoder = try AudioFileDecoder(path: path, maxChannels: maxChannels)
    var result = Decoded()
    result.sampleRate = decoder.sampleRate
    result.channelCount = decoder.channelCount
    result.estimatedFrameCount = decoder.estimatedFrameCount
    result.codecName = decoder.codecName
    let channels = decoder.channelCount
    var peak = [Double](repeating: 0, count: channels)
    var sumOfSquares = [Double](repeating: 0, count: channels)
    var armed = false
    var buffers = Set<UnsafePointer<Float>>()
    var wholeFrames = true

    while try decoder.read({ samples in
        if samples.count % channels != 0 { wholeFrames = false }
        if let base = samples.baseAddress { buffers.insert(base) }
        result.chunks += 1
        result.frames += samples.count / channels
        for (index, sample) in samples.enumerated() {
            let value = Double(sample)
            let channel = index % channels
            peak[channel] = max(peak[channel], abs(value))
            sumOfSquares[channel] += value * value
            // Hysteresis at ±amplitude/4, so low-level noise (AAC priming) does not count.
            if channel == 0 {
                if value < -amplitude / 4 { armed = true }
                if armed, value > amplitude / 4 { result.risingCrossings += 1; armed = false }
            }
        }
    }) {}

    #expect(wholeFrames, "every chunk must hold whole frames")
    // After the end, read keeps returning false.
    #expect(try decoder.read { _ in Issue.record("no samples expected after the end") } == false)
    result.peak = peak
    result.rms = sumOfSquares.map { ($0 / Double(max(result.frames, 1))).squareRoot() }
    result.distinctBuffers = buffers.count
    result.framePosition = decoder.framePosition
    return result
}

private func decibels(_ value: Double) -> Double { 20 * log10(value) }

/// A deterministic byte stream (SplitMix64), so the "random bytes" fixtures are the same every run.
func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    var bytes = [UInt8]()
    bytes.reserveCapacity(count)
    while bytes.count < count {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        withUnsafeBytes(of: z) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
    }
    return bytes
}

/// Checks that `error` is a one-line AudioFileError about `path`, and returns its reason.
@discardableResult
private func checkOneLine(_ error: AudioFileError, path: String) -> String {
    #expect(error.path == path)
    #expect(error.description == "\(path): \(error.reason)")
    #expect(!error.description.contains("\n"))
    #expect(!error.reason.isEmpty)
    return error.reason
}

@Suite("AudioFileDecoder", .enabled(if: TestRig.canRun(needing: .ffmpeg), "needs ffmpeg to make fixtures (make test has it)"))
struct AudioFileDecoderTests {
    @Test("decodes every format to the source's length, rate and channels", arguments: FormatCase.all)
    fileprivate func decodesFormat(_ format: FormatCase) throws {
        let directory = try FixtureDirectory()
        var inputs = ["-f", "lavfi", "-i", tone]
        if format.withVideo {
            inputs = ["-f", "lavfi", "-i", "testsrc=size=64x64:rate=10:duration=2"] + inputs
        }
        let path = try directory.make("tone.\(format.fileExtension)", inputs + ["-af", stereo] + format.encode)

        let decoded = try decodeAll(path)
        #expect(decoded.codecName == format.codecName)
        #expect(decoded.sampleRate == sourceRate)
        #expect(decoded.channelCount == 2)
        #expect(format.frames.contains(decoded.frames),
                "\(decoded.frames) frames (\(Double(decoded.frames) / Double(sourceRate)) s), allowed \(format.frames)")
        #expect(decoded.framePosition == Int64(decoded.frames))

        // The estimate is exact where the container stores the length, close for MP3/ADTS.
        let estimate = try #require(decoded.estimatedFrameCount)
        #expect(abs(Double(estimate) - Double(sourceFrames)) <= 0.03 * Double(sourceFrames), "estimate \(estimate)")
        if format.frames == sourceFrames...sourceFrames {
            #expect(estimate == Int64(sourceFrames))
        }

        // 1 kHz for 2 s: 2000 periods, give or take one at the edges.
        let expectedPeriods = toneHz * Double(sourceSeconds)
        #expect(abs(Double(decoded.risingCrossings) - expectedPeriods) <= 1, "\(decoded.risingCrossings) periods")

        // A sampled sine over whole periods (48 samples at 48 kHz) has RMS = amplitude/√2.
        let expectedRMS = amplitude / 2.0.squareRoot()
        for channel in 0..<2 {
            if format.lossless {
                // 16-bit rounding of the sine table: within 0.001 (the s16 peak is 16380/32768 = 0.49988).
                #expect(abs(decoded.peak[channel] - amplitude) < 0.001, "peak \(decoded.peak[channel])")
                #expect(abs(decoded.rms[channel] - expectedRMS) < 0.001, "rms \(decoded.rms[channel])")
            } else {
                #expect(abs(decibels(decoded.rms[channel] / expectedRMS)) < 0.5, "rms \(decoded.rms[channel])")
            }
        }
        // One output buffer, reused: at most a couple of growths for the largest frame.
        #expect(decoded.distinctBuffers <= 3, "\(decoded.distinctBuffers) buffers")
    }

    @Test("a mono file decodes to one channel")
    func mono() throws {
        let directory = try FixtureDirectory()
        let path = try directory.make("mono.wav", ["-f", "lavfi", "-i", tone, "-af", "volume=4"])
        let decoded = try decodeAll(path)
        #expect(decoded.channelCount == 1)
        #expect(decoded.frames == sourceFrames)
        #expect(abs(decoded.peak[0] - amplitude) < 0.001)
        #expect(abs(decoded.rms[0] - amplitude / 2.0.squareRoot()) < 0.001)
    }

    @Test("a 5.1 file keeps its six channels")
    func sixChannels() throws {
        let directory = try FixtureDirectory()
        let path = try directory.make("six.flac", ["-f", "lavfi", "-i", tone,
                                                   "-af", "volume=4,pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0"])
        let decoded = try decodeAll(path)
        #expect(decoded.channelCount == 6)
        #expect(decoded.frames == sourceFrames)
        for channel in 0..<6 {
            #expect(abs(decoded.peak[channel] - amplitude) < 0.001, "channel \(channel) peak \(decoded.peak[channel])")
            #expect(abs(decoded.rms[channel] - amplitude / 2.0.squareRoot()) < 0.001)
        }
    }

    @Test("more channels than maxChannels are down-mixed without normalization")
    func downMix() throws {
        let directory = try FixtureDirectory()
        let path = try directory.make("six.flac", ["-f", "lavfi", "-i", tone,
                                                   "-af", "volume=4,pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0"])
        let decoded = try decodeAll(path, maxChannels: 2)
        #expect(decoded.channelCount == 2)
        #expect(decoded.frames == sourceFrames)
        // swresample's default matrix: L = FL + FC/√2 + BL/√2 (LFE left out), the same for R.
        // The same tone in every channel therefore adds up to (1 + √2) × amplitude.
        let expectedPeak = (1 + 2.0.squareRoot()) * amplitude
        for channel in 0..<2 {
            #expect(abs(decoded.peak[channel] - expectedPeak) < 0.002, "peak \(decoded.peak[channel])")
        }
    }

    @Test("a missing file is reported as such")
    func missingFile() throws {
        let directory = try FixtureDirectory()
        let path = directory.path("does-not-exist.flac")
        let error = try #require(throws: AudioFileError.self) { try AudioFileDecoder(path: path) }
        #expect(checkOneLine(error, path: path) == "no such file")
    }

    @Test("an empty file is reported as such")
    func emptyFile() throws {
        let directory = try FixtureDirectory()
        let path = try directory.write("empty.wav", [])
        let error = try #require(throws: AudioFileError.self) { try AudioFileDecoder(path: path) }
        #expect(checkOneLine(error, path: path) == "file is empty")
    }

    @Test("a directory is not a file")
    func directoryPath() throws {
        let directory = try FixtureDirectory()
        let error = try #require(throws: AudioFileError.self) { try AudioFileDecoder(path: directory.url.path) }
        #expect(checkOneLine(error, path: directory.url.path) == "is a directory")
    }

    @Test("text named .wav is not an audio file")
    func textFile() throws {
        let directory = try FixtureDirectory()
        let path = try directory.write("notes.wav", Array("just some text, not audio\n".utf8))
        let error = try #require(throws: AudioFileError.self) { try AudioFileDecoder(path: path) }
        #expect(checkOneLine(error, path: path).hasPrefix("not an audio file or unsupported format"))
    }

    @Test("random bytes named .mp3 fail cleanly", arguments: [(UInt64(1), 1_000), (2, 64_000), (3, 300_000)])
    func randomBytes(seed: UInt64, size: Int) throws {
        let directory = try FixtureDirectory()
        let path = try directory.write("noise.mp3", pseudoRandomBytes(count: size, seed: seed))
        // Either at open or while reading, but it must be an AudioFileError, not a crash or noise.
        let error = try #require(throws: AudioFileError.self) {
            let decoder = try AudioFileDecoder(path: path)
            while try decoder.read({ _ in }) {}
        }
        checkOneLine(error, path: path)
    }

    @Test("a video without audio has no audio track")
    func videoOnly() throws {
        let directory = try FixtureDirectory()
        let path = try directory.make("video.mp4", ["-f", "lavfi", "-i", "testsrc=size=64x64:rate=10:duration=1", "-c:v", "libx264"])
        let error = try #require(throws: AudioFileError.self) { try AudioFileDecoder(path: path) }
        #expect(checkOneLine(error, path: path) == "no audio track")
    }

    @Test("a FLAC cut off in its header fails at open")
    func flacCutInHeader() throws {
        let directory = try FixtureDirectory()
        let full = try directory.make("full.flac", ["-f", "lavfi", "-i", tone, "-af", stereo])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: full)))
        // ffmpeg's FLAC muxer writes 8 KiB of padding metadata, so 100 bytes is inside the header.
        let path = try directory.write("cut.flac", Array(bytes.prefix(100)))
        let error = try #require(throws: AudioFileError.self) { try AudioFileDecoder(path: path) }
        checkOneLine(error, path: path)
    }

    @Test("a FLAC cut in the middle of its audio decodes its valid part and ends")
    func truncatedFLAC() throws {
        let directory = try FixtureDirectory()
        let full = try directory.make("full.flac", ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=10",
                                                    "-af", stereo])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: full)))
        let path = try directory.write("half.flac", Array(bytes.prefix(bytes.count / 2)))
        // The cut-off last frame is dropped; read then returns false rather than throwing.
        let decoded = try decodeAll(path)
        #expect(decoded.frames > 0)
        #expect(decoded.frames < 10 * sourceRate)
        #expect(decoded.frames % 4608 == 0, "whole FLAC blocks only")
        #expect(abs(decoded.peak[0] - amplitude) < 0.001, "no garbage from the cut-off frame")
    }

    @Test("corrupt data in the middle is skipped", arguments: ["flac", "mp3", "wav"])
    func corruptMiddle(fileExtension: String) throws {
        let directory = try FixtureDirectory()
        let full = try directory.make("full.\(fileExtension)",
                                      ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=10", "-af", stereo])
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: full)))
        let start = bytes.count / 2
        let noise = pseudoRandomBytes(count: 2000, seed: 7)
        bytes.replaceSubrange(start..<(start + noise.count), with: noise)
        let path = try directory.write("damaged.\(fileExtension)", bytes)

        let decoded = try decodeAll(path)
        // A few packets are lost (or, for PCM, turned into noise), the rest decodes.
        #expect(decoded.frames > 9 * sourceRate, "\(decoded.frames) frames")
        #expect(decoded.frames <= 10 * sourceRate)
    }

    @Test("streams a long file chunk by chunk and can be dropped half-way")
    func partialReadAndDeinit() throws {
        let directory = try FixtureDirectory()
        let path = try directory.make("long.mp3", ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=30",
                                                   "-af", stereo, "-c:a", "libmp3lame"])
        let decoder = try AudioFileDecoder(path: path)
        var largestChunk = 0
        for _ in 0..<10 {
            #expect(try decoder.read { largestChunk = max(largestChunk, $0.count) })
        }
        // Chunks are one codec frame (1152 for MP3), never the whole file.
        #expect(largestChunk <= 1152 * 2)
        #expect(decoder.framePosition > 0)
        #expect(decoder.framePosition <= 10 * 1152)
    }
}
