import DecibarCore
import Foundation
import Synchronization

/// The folder downloads go into (`$XDG_CACHE_HOME/decibar/streams`), bounded in size: when it
/// holds more than `StreamSettings.cacheBytes`, the least recently used files go first. The file
/// being written is never removed, even when it alone is larger than the bound.
enum StreamCache {
    static func directory(_ settings: StreamSettings) -> String? {
        if let folder = settings.cacheDirectory { return folder }
        return CacheFolder.path.map { $0 + "/streams" }
    }

    static func prepareDirectory(_ settings: StreamSettings) throws -> String {
        guard let folder = directory(settings) else { throw StreamCacheError("no cache folder (set XDG_CACHE_HOME or HOME)") }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StreamCacheError("cannot make \(folder)")
        }
        return folder
    }

    /// One file per download: the address's hash, then what tells this download from another of
    /// the same address (the player's and a second process's).
    static func fileName(for url: String) -> String {
        let serial = downloads.add(1, ordering: .relaxed).newValue
        return String(StableHash.fnv1a(url), radix: 16) + "-\(getpid())-\(serial).stream"
    }

    private static let downloads = Atomic<Int>(0)

    /// Removes the least recently used downloads until the folder fits its bound (`keeping` stays).
    static func evict(keeping kept: String, settings: StreamSettings) {
        guard let folder = directory(settings),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        var files: [(path: String, size: Int64, used: Int)] = []
        for name in names where name.hasSuffix(".stream") {
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            files.append((path, Int64(info.st_size), info.st_mtim.tv_sec))
        }
        var total = files.reduce(Int64(0)) { $0 + $1.size }
        for file in files.sorted(by: { $0.used < $1.used }) where total > settings.cacheBytes && file.path != kept {
            if unlink(file.path) == 0 { total -= file.size }
        }
    }
}
