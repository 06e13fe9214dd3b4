import DecibarCore
import Foundation

/// Waveform overviews kept between runs in `$XDG_CACHE_HOME/decibar/` as audiowaveform `.dat`
/// files, keyed by the audio file's path, size and modification time.
enum PeaksCache {
    static var directory: String {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty { return cache + "/decibar" }
        return (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache/decibar"
    }

    /// The cache file for `path` as it is now, or nil if the file cannot be examined.
    static func location(for path: String) -> String? {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: absolute),
              let size = attributes[.size] as? NSNumber,
              let modified = attributes[.modificationDate] as? Date else { return nil }
        let key = "\(absolute)|\(size.int64Value)|\(modified.timeIntervalSince1970)"
        // FNV-1a: a stable name from the key (Swift's own hashValue changes between runs).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return directory + "/" + String(hash, radix: 16) + ".dat"
    }

    static func load(for path: String) -> Peaks? {
        guard let location = location(for: path), let data = FileManager.default.contents(atPath: location) else { return nil }
        return try? AudiowaveformFormat.peaks(fromBinary: [UInt8](data))
    }

    /// Stores peaks; a failure only costs the next run the analysis, so it is silent.
    static func store(_ peaks: Peaks, for path: String) {
        guard let location = location(for: path) else { return }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try? FileWriter.writeAtomically(AudiowaveformFormat.binary(peaks, bits: .sixteen), to: location)
    }
}
