import CFFmpeg
import Glibc
import SystemPackage

/// The bytes a decoder reads: a regular file opened and checked here, or bytes in memory.
///
/// FFmpeg reads through this (a custom I/O context) instead of opening the path itself, so a name is
/// never taken for one of FFmpeg's protocols (`concat:a|b` is a file of that name), a named pipe or
/// device is refused before anything waits on it, and decoding from memory (for the fuzzer) takes the
/// same path as a file.
final class AudioFileInput {
    private enum Storage {
        case file(descriptor: Int32)
        case memory([UInt8])
        case source(any AudioByteSource)
    }

    private let storage: Storage
    /// Total bytes (for a download, what is known when it opens: 0 if unknown).
    let size: Int64
    private var position: Int64 = 0

    /// Opens a regular file for reading; anything else is an error in user terms.
    init(path: String) throws(AudioFileError) {
        func fail(_ reason: String) -> AudioFileError { AudioFileError(path: path, reason: reason) }
        // Look before opening: opening a device can have effects of its own.
        var info = stat()
        guard stat(path, &info) == 0 else { throw fail(Self.reason(forErrno: errno)) }
        if let reason = Self.reason(forType: info.st_mode) { throw fail(reason) }
        // Non-blocking, so that a FIFO put in the file's place since `stat` cannot make us wait.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw fail(Self.reason(forErrno: errno)) }
        guard fstat(descriptor, &info) == 0 else {
            let reason = Self.reason(forErrno: errno)
            close(descriptor)
            throw fail(reason)
        }
        if let reason = Self.reason(forType: info.st_mode) {
            close(descriptor)
            throw fail(reason)
        }
        guard info.st_size > 0 else {
            close(descriptor)
            throw fail("file is empty")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        storage = .file(descriptor: descriptor)
        size = Int64(info.st_size)
    }

    init(bytes: [UInt8]) {
        storage = .memory(bytes)
        size = Int64(bytes.count)
    }

    init(source: any AudioByteSource) {
        storage = .source(source)
        size = source.size ?? 0
    }

    /// The open file's descriptor (nil for bytes in memory or a download); the input keeps owning it.
    var descriptor: Int32? {
        if case .file(let descriptor) = storage { return descriptor }
        return nil
    }

    var isDownload: Bool {
        if case .source = storage { return true }
        return false
    }

    /// Why the download behind this input failed, if it did.
    private(set) var sourceFailure: String?

    deinit {
        if case .file(let descriptor) = storage { close(descriptor) }
    }

    /// Reads up to `count` bytes at the current position: the number read, `AVERROR_EOF` at the
    /// end (never 0, which FFmpeg would ask again for forever), or a negative FFmpeg error.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        guard count > 0 else { return 0 }
        if case .source(let source) = storage {
            switch source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count), at: position) {
            case .bytes(let read):
                position += Int64(read)
                return Int32(read)
            case .end: return decibar_averror_eof()
            case .failed(let reason):
                sourceFailure = reason
                return decibar_averror(EIO)
            case .cancelled: return decibar_averror_exit()
            }
        }
        let wanted = Int(min(Int64(count), max(0, size - position)))
        guard wanted > 0 else { return decibar_averror_eof() }
        switch storage {
        case .memory(let bytes):
            bytes.withUnsafeBufferPointer { all in
                buffer.update(from: all.baseAddress! + Int(position), count: wanted)
            }
            position += Int64(wanted)
            return Int32(wanted)
        case .file(let descriptor):
            // swift-system makes the call again when a signal interrupts it.
            let read: Int
            do {
                read = try FileDescriptor(rawValue: descriptor).read(fromAbsoluteOffset: position,
                                                                     into: UnsafeMutableRawBufferPointer(start: buffer, count: wanted))
            } catch {
                return decibar_averror((error as? Errno)?.rawValue ?? EIO)
            }
            // The file shrank under us.
            if read == 0 { return decibar_averror_eof() }
            position += Int64(read)
            return Int32(read)
        case .source:
            // Read above.
            return decibar_averror(EINVAL)
        }
    }

    /// FFmpeg's seek: SEEK_SET/CUR/END, or the total size for `AVSEEK_SIZE`.
    func seek(offset: Int64, whence: Int32) -> Int64 {
        var size = self.size
        if case .source(let source) = storage {
            // A download's size may become known after it opened; an endless one has none.
            guard let known = source.size else {
                if whence & Int32(AVSEEK_SIZE) != 0 { return Int64(decibar_averror(ENOSYS)) }
                // Only moves that cost nothing: FFmpeg probing a stream that cannot jump.
                if whence & ~Int32(AVSEEK_FORCE) == SEEK_CUR && offset == 0 { return position }
                return Int64(decibar_averror(ESPIPE))
            }
            size = known
        }
        if whence & Int32(AVSEEK_SIZE) != 0 { return size }
        let base: Int64
        switch whence & ~Int32(AVSEEK_FORCE) {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = size
        default: return Int64(decibar_averror(EINVAL))
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return Int64(decibar_averror(EINVAL)) }
        position = target
        return target
    }

    /// Why a file of this type cannot be decoded, or nil for a regular file.
    private static func reason(forType mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "is a directory"
        case S_IFIFO: "is a named pipe (FIFO), not a file"
        case S_IFCHR, S_IFBLK: "is a device, not a file"
        case S_IFSOCK: "is a socket, not a file"
        default: "is not a regular file"
        }
    }

    static func reason(forErrno code: Int32) -> String {
        switch code {
        case ENOENT, ENOTDIR: "no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "is a directory"
        case ELOOP: "too many symbolic links (a loop?)"
        case ENAMETOOLONG: "name too long"
        default: String(cString: strerror(code))
        }
    }

    /// An FFmpeg I/O context reading from this input. The caller frees it with `freeIOContext`.
    func makeIOContext() -> UnsafeMutablePointer<AVIOContext>? {
        let bufferSize: Int32 = 64 * 1024
        guard let buffer = ff.av_malloc!(Int(bufferSize)) else { return nil }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        let context = ff.avio_alloc_context!(buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 0, opaque, { opaque, buffer, size in
            guard let opaque, let buffer else { return decibar_averror(EINVAL) }
            return Unmanaged<AudioFileInput>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, count: Int(size))
        }, nil, { opaque, offset, whence in
            guard let opaque else { return Int64(decibar_averror(EINVAL)) }
            return Unmanaged<AudioFileInput>.fromOpaque(opaque).takeUnretainedValue().seek(offset: offset, whence: whence)
        })
        if context == nil { ff.av_free!(buffer) }
        if case .source(let source) = storage, !source.isSeekable { context?.pointee.seekable = 0 }
        return context
    }

    /// Frees a context from `makeIOContext` (FFmpeg may have replaced its buffer).
    static func freeIOContext(_ context: inout UnsafeMutablePointer<AVIOContext>?) {
        guard let io = context else { return }
        ff.av_free!(io.pointee.buffer)
        io.pointee.buffer = nil
        ff.avio_context_free!(&context)
    }
}
