import DecibarCore
import Foundation

/// The file a download writes into and the decoder reads from, in the stream cache. With a
/// `capacity` it is a ring: byte n goes to n mod capacity, and only the latest `capacity` bytes
/// are kept (for endless streams).
final class StreamStore {
    let path: String
    let capacity: Int64?
    private let descriptor: Int32

    init(url: String, capacity: Int64?, settings: StreamSettings) throws {
        let directory = try StreamCache.prepareDirectory(settings)
        path = directory + "/" + StreamCache.fileName(for: url)
        self.capacity = capacity
        // A fresh file: what an earlier run left may be another version of the file.
        let opened = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard opened >= 0 else { throw StreamCacheError("\(path): \(String(cString: strerror(errno)))") }
        descriptor = opened
        StreamCache.evict(keeping: path, settings: settings)
    }

    deinit { close(descriptor) }

    /// The oldest byte still held once `written` bytes have been written (a ring forgets).
    func oldestOffset(writtenTo written: Int64) -> Int64 {
        guard let capacity else { return 0 }
        return max(0, written - capacity)
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        var done = 0
        while done < bytes.count {
            let (place, room) = location(of: offset + Int64(done), count: bytes.count - done)
            let piece = UnsafeRawBufferPointer(rebasing: bytes[done ..< done + room])
            guard let written = try? Posix.write(descriptor, piece, at: place), written > 0 else { return false }
            done += written
        }
        return true
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int {
        let (place, room) = location(of: offset, count: buffer.count)
        return (try? Posix.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<room]), at: place)) ?? 0
    }

    /// Where `offset` is in the file, and how many bytes from there fit before the ring wraps.
    private func location(of offset: Int64, count: Int) -> (place: Int64, room: Int) {
        guard let capacity else { return (offset, count) }
        let place = offset % capacity
        return (place, Int(min(Int64(count), capacity - place)))
    }

    /// The download ended: refresh the time that eviction goes by.
    func finish() {
        _ = futimens(descriptor, nil)
    }
}

struct StreamCacheError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
