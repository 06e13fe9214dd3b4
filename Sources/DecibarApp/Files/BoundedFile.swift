import Foundation

/// Reading a whole small file safely: a regular file only (a FIFO or device is refused before
/// anything waits on it), and never more than a limit, however large the file claims or turns out
/// to be.
enum BoundedFile {
    struct Failure: Error {
        let reason: String
    }

    /// An open, checked regular file; closed when released.
    final class Handle {
        let descriptor: Int32
        let size: Int64

        init(path: String, followsLinks: Bool = true) throws(Failure) {
            let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followsLinks ? 0 : O_NOFOLLOW)
            descriptor = open(path, flags)
            guard descriptor >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                throw Failure(reason: "not a regular file")
            }
            size = Int64(info.st_size)
        }

        deinit { close(descriptor) }

        /// Reads `count` bytes at `offset`; fewer only at the end of the file.
        func read(count: Int, at offset: Int64) throws(Failure) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let read: Int
                do {
                    read = try bytes.withUnsafeMutableBytes { raw throws(Posix.Failure) in
                        try Posix.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: raw[done...]), at: offset + Int64(done))
                    }
                } catch {
                    throw Failure(reason: "\(error)")
                }
                if read == 0 { break }
                done += read
            }
            bytes.removeLast(count - done)
            return bytes
        }
    }

    /// The whole file, if it is a regular file of at most `limit` bytes.
    static func read(_ path: String, limit: Int64) throws(Failure) -> [UInt8] {
        let handle = try Handle(path: path)
        guard handle.size <= limit else { throw Failure(reason: "larger than \(limit >> 20) MiB") }
        return try handle.read(count: Int(handle.size), at: 0)
    }
}
