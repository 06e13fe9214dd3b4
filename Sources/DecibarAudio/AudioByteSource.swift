/// Bytes a decoder reads that may not all be there yet: a download in progress. Reads block until
/// the bytes arrive, the download ends or fails, or the source is cancelled.
public protocol AudioByteSource: AnyObject, Sendable {
    /// Reads up to `buffer.count` bytes at `offset`, waiting for at least one.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> AudioByteRead
    /// The whole size when known (nil for an endless stream, or before the server said).
    var size: Int64? { get }
    /// Whether reading may jump (a file with a known size on a server that serves ranges).
    var isSeekable: Bool { get }
}

public enum AudioByteRead: Sendable, Equatable {
    case bytes(Int)
    case end
    /// The download failed, with a one-line reason.
    case failed(String)
    case cancelled
}
