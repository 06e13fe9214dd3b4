import Foundation

/// Decibar's cache folder: `$XDG_CACHE_HOME/decibar` (overviews, and streamed tracks under `streams`).
enum CacheFolder {
    /// The cache folder, or nil when there is no home to put it in (never a shared temporary folder).
    static var path: String? {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/decibar" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/decibar" }
        if let entry = getpwuid(getuid()), let home = entry.pointee.pw_dir, home.pointee == UInt8(ascii: "/") {
            return String(cString: home) + "/.cache/decibar"
        }
        return nil
    }
}
