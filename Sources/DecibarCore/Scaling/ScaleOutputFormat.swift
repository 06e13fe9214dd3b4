/// What `decibar scale` writes for an output name: the container and codec (FFmpeg's names)
/// chosen by the extension, and whether samples go to the encoder as rounded integers.
public struct ScaleOutputFormat: Sendable, Equatable {
    public let fileExtension: String
    /// FFmpeg's muxer.
    public let container: String
    /// FFmpeg's encoder; for PCM, the 16-bit one (others follow the sample format).
    public let codec: String
    /// Lossless: the samples keep the input's bit depth (or `--sample-format`).
    public let isLossless: Bool
    /// The most channels the format holds.
    public let maximumChannels: Int
    /// Sample rates the encoder takes; empty for any.
    public let sampleRates: [Int]

    /// The extensions `scale` writes.
    public static let all: [ScaleOutputFormat] = [
        .init(fileExtension: "wav", container: "wav", codec: "pcm_s16le", isLossless: true, maximumChannels: 64, sampleRates: []),
        .init(fileExtension: "flac", container: "flac", codec: "flac", isLossless: true, maximumChannels: 8, sampleRates: []),
        .init(fileExtension: "aiff", container: "aiff", codec: "pcm_s16be", isLossless: true, maximumChannels: 64, sampleRates: []),
        .init(fileExtension: "aif", container: "aiff", codec: "pcm_s16be", isLossless: true, maximumChannels: 64, sampleRates: []),
        .init(fileExtension: "caf", container: "caf", codec: "pcm_s16le", isLossless: true, maximumChannels: 64, sampleRates: []),
        .init(fileExtension: "m4a", container: "ipod", codec: "aac", isLossless: false, maximumChannels: 8, sampleRates: []),
        .init(fileExtension: "aac", container: "adts", codec: "aac", isLossless: false, maximumChannels: 8, sampleRates: []),
        .init(fileExtension: "mp4", container: "mp4", codec: "aac", isLossless: false, maximumChannels: 8, sampleRates: []),
        .init(fileExtension: "mp3", container: "mp3", codec: "libmp3lame", isLossless: false, maximumChannels: 2,
              sampleRates: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]),
        .init(fileExtension: "ogg", container: "ogg", codec: "libvorbis", isLossless: false, maximumChannels: 8, sampleRates: []),
        .init(fileExtension: "opus", container: "opus", codec: "libopus", isLossless: false, maximumChannels: 8,
              sampleRates: [8000, 12000, 16000, 24000, 48000]),
    ]

    /// The format for `fileExtension` (any case), or nil when `scale` cannot write it.
    public static func named(_ fileExtension: String) -> ScaleOutputFormat? {
        let lowered = fileExtension.lowercased()
        return all.first { $0.fileExtension == lowered }
    }

    /// Seed 001's fallback: what cannot be written as named is written as AAC in an .m4a.
    public static let fallback = named("m4a")!

    /// The format for an output path, and the path to write: `path` itself, or for an extension
    /// that cannot be written (or none), the same name ending in `.m4a` (`isFallback`).
    public static func resolve(_ path: String) -> (path: String, format: ScaleOutputFormat, isFallback: Bool) {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[nameStart...]
        // A leading dot names a hidden file, not an extension.
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let fileExtension = String(name[name.index(after: dot)...])
            if let format = named(fileExtension) { return (path, format, false) }
            return (String(path[..<dot]) + ".m4a", fallback, true)
        }
        return (path + ".m4a", fallback, true)
    }

    /// The codec for samples of `format`: PCM containers name the depth in the codec.
    public func codec(for format: SampleFormat) -> String {
        guard codec.hasPrefix("pcm_") else { return codec }
        let endian = codec.hasSuffix("be") ? "be" : "le"
        switch format {
        case .s16: return "pcm_s16" + endian
        case .s24: return "pcm_s24" + endian
        case .s32: return "pcm_s32" + endian
        case .f32: return "pcm_f32" + endian
        }
    }

    /// The rate to encode at: the input's if the encoder takes it, else the nearest it takes above
    /// (or its highest).
    public func sampleRate(for input: Int) -> Int {
        guard !sampleRates.isEmpty, !sampleRates.contains(input) else { return input }
        return sampleRates.first { $0 > input } ?? sampleRates.last!
    }
}

/// How samples are stored: integers of 16, 24 or 32 bits, or 32-bit floats.
public enum SampleFormat: String, CaseIterable, Sendable {
    case s16, s24, s32, f32

    /// Bits of an integer sample; nil for float.
    public var integerBits: Int? {
        switch self {
        case .s16: 16
        case .s24: 24
        case .s32: 32
        case .f32: nil
        }
    }
}
