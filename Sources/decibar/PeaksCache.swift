import DecibarAudio
import DecibarCore
import Foundation

/// Waveform overviews kept between runs in `$XDG_CACHE_HOME/decibar/` (or `~/.cache/decibar/`) as
/// audiowaveform `.dat` files, keyed by the audio file's path, size and modification time.
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
    }

    /// No overview this large is real (hundreds of hours).
    static let maximumFileSize: Int64 = 256 << 20

    /// The cache folder, or nil when there is no home to put it in (never a shared temporary folder).
    static var directory: String? {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/decibar" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/decibar" }
        if let entry = getpwuid(getuid()), let home = entry.pointee.pw_dir, home.pointee == UInt8(ascii: "/") {
            return String(cString: home) + "/.cache/decibar"
        }
        return nil
    }

    /// The cache file for `path` as it is now, or nil if the file cannot be examined.
    static func location(for path: String) -> String? {
        guard let directory else { return nil }
        let absolute = OutputPath.absolute(path)
        var info = stat()
        guard stat(absolute, &info) == 0 else { return nil }
        let key = "\(absolute)|\(info.st_size)|\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        return directory + "/" + String(StableHash.fnv1a(key), radix: 16) + ".dat"
    }

    /// The cached overview of `path`, if there is one that fits `audio`; a misfit is removed.
    static func load(for path: String, audio: Audio, samplesPerPixel: Int) -> Peaks? {
        guard let location = location(for: path),
              let handle = try? BoundedFile.Handle(path: location, followsLinks: false) else { return nil }
        guard let headerBytes = try? handle.read(count: AudiowaveformFormat.BinaryHeader.maximumSize, at: 0),
              let header = try? AudiowaveformFormat.binaryHeader(headerBytes),
              handle.size <= maximumFileSize, header.fileSize == handle.size,
              fits(header, audio: audio, samplesPerPixel: samplesPerPixel),
              let bytes = try? handle.read(count: Int(handle.size), at: 0),
              let peaks = try? AudiowaveformFormat.peaks(fromBinary: bytes) else {
            unlink(location)
            return nil
        }
        return peaks
    }

    /// Whether a cached header can be the overview of `audio`.
    static func fits(_ header: AudiowaveformFormat.BinaryHeader, audio: Audio, samplesPerPixel: Int) -> Bool {
        guard header.bits == .sixteen, header.sampleRate == audio.sampleRate, header.channelCount == audio.channelCount,
              header.samplesPerPixel == samplesPerPixel, header.length >= 1 else { return false }
        guard let estimate = audio.estimatedFrameCount, estimate > 0 else { return true }
        // The overview covers every frame decoded; a stated length may be off a little (MP3).
        let covered = Int64(header.length) * Int64(samplesPerPixel)
        let tolerance = max(2 * Int64(samplesPerPixel), estimate / 20)
        return abs(covered - estimate) <= tolerance
    }

    /// Stores peaks; a failure only costs the next run the analysis, so it is silent.
    static func store(_ peaks: Peaks, for path: String) {
        guard let directory, let location = location(for: path) else { return }
        // Private: the cache names the files a user plays.
        if !FileManager.default.fileExists(atPath: directory) {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        guard let out = try? PartialOutput(destination: location) else { return }
        do {
            try out.write(AudiowaveformFormat.binary(peaks, bits: .sixteen))
            try out.commit()
        } catch {
            out.discard()
        }
    }
}
