import DecibarAudio
import DecibarCore
import Foundation

/// Waveform overviews kept between runs in `$XDG_CACHE_HOME/decibar/` (or `~/.cache/decibar/`),
/// keyed by the audio file's path, size and modification time: an audiowaveform `.dat` followed by
/// the exact number of frames it covers (8 bytes, little-endian), which the pairs alone round up.
///
/// A cache file is only a hint: it is used when its size is exactly what its header says, its rate
/// and channels are the audio's, and its length agrees with the audio's (when the file states its
/// length). Anything else is removed and the overview computed again. A cache file is read only
/// after those checks, so a huge or damaged one costs nothing.
enum PeaksCache {
    /// What the cache must agree with: the audio as the decoder opened it.
    struct Audio {
        var sampleRate: Int
        var channelCount: Int
        var estimatedFrameCount: Int64?

        init(_ decoder: AudioFileDecoder) {
            sampleRate = decoder.sampleRate
            channelCount = decoder.channelCount
            estimatedFrameCount = decoder.estimatedFrameCount
        }

        init(_ source: any TrackSource) {
            sampleRate = source.sampleRate
            channelCount = source.channelCount
            estimatedFrameCount = source.estimatedFrameCount
        }
    }

    /// No overview this large is real (hundreds of hours).
    static let maximumFileSize: Int64 = 256 << 20

    static var directory: String? { CacheFolder.path }

    /// The cache file for `path` as it is now, or nil if the file cannot be examined.
    /// A streamed track's entry is keyed by its address and what the server says identifies this
    /// version (ETag or Last-Modified, and the length); without those it has none.
    static func location(for path: String, stream: StreamDownload? = nil) -> String? {
        guard let directory else { return nil }
        if MediaLocation.isRemote(path) {
            guard let identity = stream?.cacheIdentity else { return nil }
            return directory + "/" + String(StableHash.fnv1a("\(path)|\(identity)"), radix: 16) + ".dat"
        }
        let absolute = OutputPath.absolute(path)
        var info = stat()
        guard stat(absolute, &info) == 0 else { return nil }
        let key = "\(absolute)|\(info.st_size)|\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        return directory + "/" + String(StableHash.fnv1a(key), radix: 16) + ".dat"
    }

    /// A cached overview and the exact number of frames it covers.
    struct Entry {
        var peaks: Peaks
        var frameCount: Int64
    }

    /// The cached overview of `path`, if there is one that fits `audio`; a misfit is removed.
    static func load(for path: String, audio: Audio, samplesPerPixel: Int, stream: StreamDownload? = nil) -> Entry? {
        guard let location = location(for: path, stream: stream),
              let handle = try? BoundedFile.Handle(path: location, followsLinks: false) else { return nil }
        guard let headerBytes = try? handle.read(count: AudiowaveformFormat.BinaryHeader.maximumSize, at: 0),
              let header = try? AudiowaveformFormat.binaryHeader(headerBytes),
              handle.size <= maximumFileSize, header.fileSize + 8 == handle.size,
              let trailer = try? handle.read(count: 8, at: header.fileSize), trailer.count == 8 else {
            unlink(location)
            return nil
        }
        let frames = trailer.reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard fits(header, frameCount: frames, audio: audio, samplesPerPixel: samplesPerPixel),
              let bytes = try? handle.read(count: Int(header.fileSize), at: 0),
              let peaks = try? AudiowaveformFormat.peaks(fromBinary: bytes) else {
            unlink(location)
            return nil
        }
        return Entry(peaks: peaks, frameCount: frames)
    }

    /// Whether a cached header and frame count can be the overview of `audio`.
    static func fits(_ header: AudiowaveformFormat.BinaryHeader, frameCount: Int64, audio: Audio, samplesPerPixel: Int) -> Bool {
        guard header.bits == .sixteen, header.sampleRate == audio.sampleRate, header.channelCount == audio.channelCount,
              header.samplesPerPixel == samplesPerPixel, header.length >= 1 else { return false }
        // The pairs cover the frames, the last one partly.
        let covered = Int64(header.length) * Int64(samplesPerPixel)
        guard frameCount > covered - Int64(samplesPerPixel), frameCount <= covered else { return false }
        guard let estimate = audio.estimatedFrameCount, estimate > 0 else { return true }
        // A length the file states may be off a little (MP3), never by much.
        let tolerance = max(2 * Int64(samplesPerPixel), estimate / 20)
        return abs(frameCount - estimate) <= tolerance
    }

    /// Stores peaks covering `frameCount` frames; a failure only costs the next run the analysis,
    /// so it is silent.
    static func store(_ peaks: Peaks, frameCount: Int64, for path: String, stream: StreamDownload? = nil) {
        guard let directory, let location = location(for: path, stream: stream) else { return }
        // Private: the cache names the files a user plays.
        if !FileManager.default.fileExists(atPath: directory) {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        PartialOutput.removeStale(for: location)
        guard let out = try? PartialOutput(destination: location) else { return }
        do {
            try out.write(AudiowaveformFormat.binary(peaks, bits: .sixteen)
                + (0 ..< 8).map { UInt8(truncatingIfNeeded: frameCount >> (8 * $0)) })
            try out.commit()
        } catch {
            out.discard()
        }
    }
}
