import Foundation

/// Odd, damaged and hostile inputs, made afresh by the tests that use them (nothing is committed):
/// truncations at many offsets, random bytes under every extension, headers that lie, odd rates
/// and channel counts, huge tags, and paths that are not files at all.
struct MalformedCorpus {
    struct Item: CustomStringConvertible, Sendable {
        var label: String
        var path: String
        var description: String { label }
    }

    let folder: String
    private(set) var items: [Item] = []

    static let extensions = ["wav", "flac", "mp3", "ogg", "opus", "m4a", "aac", "aiff", "caf", "mp4"]
    /// Rates a header may claim that the decoder takes, far below any music's.
    static let lowRates = [1, 2, 100, 1000]

    init(in folder: String) throws {
        self.folder = folder
        let tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=1", "-ac", "2"]
        var bases: [String: Data] = [:]
        for fileExtension in Self.extensions {
            let path = folder + "/base.\(fileExtension)"
            switch fileExtension {
            case "mp4":
                try TestRig.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=32x32:rate=10:duration=1"] + tone + ["-c:a", "aac", "-shortest", path])
            case "aac":
                try TestRig.ffmpeg(tone + ["-c:a", "aac", "-f", "adts", path])
            case "ogg":
                try TestRig.ffmpeg(tone + ["-c:a", "libvorbis", path])
            case "mp3":
                try TestRig.ffmpeg(tone + ["-c:a", "libmp3lame", path])
            default:
                try TestRig.ffmpeg(tone + [path])
            }
            bases[fileExtension] = try Data(contentsOf: URL(fileURLWithPath: path))
            add("intact \(fileExtension)", path: path)
        }

        // Truncations.
        for fileExtension in Self.extensions {
            let data = bases[fileExtension]!
            for offset in [1, 12, 100, 1000, data.count / 2, data.count - 1] where offset < data.count {
                write("cut-\(offset).\(fileExtension)", data.prefix(offset), label: "\(fileExtension) cut at \(offset) bytes")
            }
        }
        // Random bytes under every extension.
        for (index, fileExtension) in Self.extensions.enumerated() {
            write("random.\(fileExtension)", Data(pseudoRandomBytes(count: 16_384, seed: UInt64(100 + index))), label: "random bytes .\(fileExtension)")
        }

        // Headers that lie about the length.
        var mp3 = bases["mp3"]!
        if let tag = mp3.range(of: Data("Xing".utf8)) ?? mp3.range(of: Data("Info".utf8)) {
            mp3.replaceSubrange(tag.upperBound + 4 ..< tag.upperBound + 8, with: [0xFF, 0xFF, 0xFF, 0xFF])
            write("lying-xing.mp3", mp3, label: "mp3 whose Xing header claims 0xFFFFFFFF frames")
        }
        try TestRig.ffmpeg(tone + ["-rf64", "always", folder + "/rf64-base.wav"])
        var rf64 = try Data(contentsOf: URL(fileURLWithPath: folder + "/rf64-base.wav"))
        if let ds64 = rf64.range(of: Data("ds64".utf8)) {
            let huge = withUnsafeBytes(of: UInt64(9_000_000_000_000_000).littleEndian) { Data($0) }
            rf64.replaceSubrange(ds64.upperBound + 12 ..< ds64.upperBound + 20, with: huge)
            rf64.replaceSubrange(ds64.upperBound + 20 ..< ds64.upperBound + 28, with: huge)
            write("lying-ds64.wav", rf64, label: "RF64 whose ds64 chunk claims 9e15 bytes")
        }
        write("lying-data.wav", Self.wav(channels: 2, rate: 44100, frames: 4410, dataSizeClaim: 0xFFFF_FFF0), label: "WAV claiming 4 GB of data")
        var flac = bases["flac"]!
        // STREAMINFO's total samples: the low 36 bits of bytes 21...25 of the file.
        if flac.count > 26 {
            flac[21] |= 0x0F
            for index in 22 ... 25 { flac[index] = 0xFF }
            write("lying-total.flac", flac, label: "FLAC whose STREAMINFO claims 2^36 samples")
        }
        write("zero-channels.wav", Self.wav(channels: 0, rate: 44100, frames: 100), label: "WAV with 0 channels")
        write("many-channels.wav", Self.wav(channels: 65535, rate: 44100, frames: 1), label: "WAV with 65535 channels")
        write("zero-rate.wav", Self.wav(channels: 2, rate: 0, frames: 100), label: "WAV with rate 0")
        write("huge-rate.wav", Self.wav(channels: 2, rate: 0xFFFF_FFFF, frames: 100), label: "WAV with rate 2^32-1")
        write("int-max-rate.wav", Self.wav(channels: 2, rate: 0x7FFF_FFFF, frames: 100), label: "WAV with rate 2^31-1")
        write("zero-bits.wav", Self.wav(channels: 2, rate: 44100, frames: 100, bits: 0), label: "WAV with 0 bits per sample")

        // Odd rates and channel counts that are valid.
        for rate in [1, 8000, 384_000, 768_000] {
            write("rate-\(rate).wav", Self.wav(channels: 2, rate: UInt32(rate), frames: max(4, rate / 4)), label: "\(rate) Hz WAV")
        }
        // Low rates long enough for every analysis to run: spectra that end below the beat
        // finder's lowest band (0.5 Hz at 1 Hz), and its tempo history (3 s) at 1000 Hz.
        for rate in Self.lowRates {
            let frames = rate <= 2 ? 1024 : 4096
            write("low-rate-\(rate).wav", Self.wav(channels: 2, rate: UInt32(rate), frames: frames), label: "\(rate) Hz WAV of \(frames) frames")
        }
        for channels in [3, 5, 7, 9, 16, 32, 64] {
            write("channels-\(channels).wav", Self.wav(channels: channels, rate: 48000, frames: 12000), label: "\(channels)-channel WAV")
        }

        // Huge tags: 8 MB inside an ID3v2 tag and a FLAC metadata block, and a tag claiming more than the file.
        let big = Data(repeating: 0x41, count: 8 << 20)
        write("big-id3.mp3", Self.id3(frameSize: big.count) + big + bases["mp3"]!, label: "mp3 after an 8 MB ID3 tag")
        write("lying-id3.mp3", Self.id3(frameSize: 200 << 20) + bases["mp3"]!.prefix(4000), label: "mp3 whose ID3 tag claims 200 MB")
        var bigFLAC = bases["flac"]!
        // After STREAMINFO (4 + 4 + 34 bytes): an APPLICATION block of 8 MB, not the last block.
        var block = Data([2, UInt8((big.count >> 16) & 0xFF), UInt8((big.count >> 8) & 0xFF), UInt8(big.count & 0xFF)])
        block += Data("test".utf8) + big.dropFirst(4)
        bigFLAC.insert(contentsOf: block, at: 42)
        bigFLAC[4] &= 0x7F
        write("big-block.flac", bigFLAC, label: "FLAC with an 8 MB metadata block")

        // Paths that are not regular files, and names that are odd.
        mkfifo(folder + "/fifo.wav", 0o644)
        add("a FIFO", path: folder + "/fifo.wav")
        try FileManager.default.createDirectory(atPath: folder + "/folder.flac", withIntermediateDirectories: false)
        add("a directory", path: folder + "/folder.flac")
        symlink(folder + "/loop-b.mp3", folder + "/loop-a.mp3")
        symlink(folder + "/loop-a.mp3", folder + "/loop-b.mp3")
        add("a symlink loop", path: folder + "/loop-a.mp3")
        symlink(folder + "/nothing.wav", folder + "/dangling.wav")
        add("a dangling symlink", path: folder + "/dangling.wav")
        write("empty.wav", Data(), label: "an empty file")
        add("a character device", path: "/dev/zero")
        write("new\nline.wav", bases["wav"]!, label: "a name with a newline")
        write("concat:base.wav|base.flac", bases["wav"]!, label: "a name that looks like an FFmpeg protocol")
        write(String(repeating: "L", count: 251) + ".wav", bases["wav"]!, label: "a 255-byte name")
    }

    private mutating func add(_ label: String, path: String) {
        items.append(Item(label: label, path: path))
    }

    private mutating func write(_ name: String, _ data: Data, label: String) {
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: data)
        add(label, path: path)
    }

    /// A canonical PCM WAV (16 bits unless told) with a sine in every channel; header fields may lie.
    static func wav(channels: Int, rate: UInt32, frames: Int, bits: Int = 16, dataSizeClaim: UInt32? = nil) -> Data {
        let bytesPerSample = max(1, bits / 8)
        var samples = Data()
        samples.reserveCapacity(frames * max(1, channels) * bytesPerSample)
        for frame in 0 ..< frames {
            let value = Int16(8000 * sin(Double(frame) * 0.0627))
            for _ in 0 ..< min(channels, 64) {
                withUnsafeBytes(of: value.littleEndian) { samples.append(contentsOf: $0.prefix(bytesPerSample)) }
            }
        }
        func le<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
        var data = Data("RIFF".utf8) + le(UInt32(36 + samples.count)) + Data("WAVEfmt ".utf8) + le(UInt32(16))
        data += le(UInt16(1)) + le(UInt16(truncatingIfNeeded: channels)) + le(rate)
        data += le(rate &* UInt32(truncatingIfNeeded: channels * bytesPerSample)) + le(UInt16(truncatingIfNeeded: channels * bytesPerSample))
        data += le(UInt16(bits)) + Data("data".utf8) + le(dataSizeClaim ?? UInt32(samples.count))
        return data + samples
    }

    /// An ID3v2.3 header and the header of one PRIV frame of `frameSize` bytes (which follow).
    static func id3(frameSize: Int) -> Data {
        let total = frameSize + 10
        let syncsafe = [UInt8((total >> 21) & 0x7F), UInt8((total >> 14) & 0x7F), UInt8((total >> 7) & 0x7F), UInt8(total & 0x7F)]
        let size = [UInt8((frameSize >> 24) & 0xFF), UInt8((frameSize >> 16) & 0xFF), UInt8((frameSize >> 8) & 0xFF), UInt8(frameSize & 0xFF)]
        return Data("ID3".utf8) + Data([3, 0, 0] + syncsafe) + Data("PRIV".utf8) + Data(size + [0, 0])
    }
}
