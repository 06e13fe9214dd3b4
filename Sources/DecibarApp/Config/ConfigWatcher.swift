import Foundation
import Glibc
import Synchronization

/// Watches the config file's folder with inotify and calls back when the file was written or
/// replaced: editors that save by writing a new file and renaming it over the old one work, which
/// a watch on the file itself would miss. Saves close together are reported once (150 ms).
final class ConfigWatcher: Sendable {
    private let fd: Int32

    /// Raised by the watcher's thread, taken by the frame loop.
    final class Flag: Sendable {
        private let raised = Atomic<Bool>(false)
        func raise() { raised.store(true, ordering: .releasing) }
        func take() -> Bool { raised.exchange(false, ordering: .acquiringAndReleasing) }
    }

    /// Starts watching; nil (with the reason logged by the caller) when inotify cannot watch the folder.
    init?(path: String, changed: @escaping @Sendable () -> Void) {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
        guard inotify_add_watch(fd, folder, mask) >= 0 else { close(fd); return nil }
        let fd = self.fd
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = (try? buffer.withUnsafeMutableBytes { raw throws(Posix.Failure) in try Posix.read(fd, into: raw) }) ?? 0
                guard count > 0 else { return }
                guard Self.names(in: buffer[0 ..< count]).contains(name) else { continue }
                // Let the rest of a save land (truncate, write, close; or write, rename).
                while (try? Posix.poll(fd, milliseconds: 150)) == true {
                    let more = (try? buffer.withUnsafeMutableBytes { raw throws(Posix.Failure) in try Posix.read(fd, into: raw) }) ?? 0
                    if more <= 0 { break }
                }
                changed()
            }
        }
        thread.name = "decibar config watcher"
        thread.start()
    }

    /// The file names in a read of inotify events.
    private static func names(in bytes: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let length = bytes[offset + 12 ..< offset + 16].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
            let nameBytes = bytes[(offset + header) ..< min(bytes.endIndex, offset + header + length)].prefix { $0 != 0 }
            names.append(String(decoding: nameBytes, as: UTF8.self))
            offset += header + length
        }
        return names
    }
}
