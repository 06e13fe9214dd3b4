/// Cuts the bytes a control client sends into lines. A line longer than `maximumLineLength` is
/// reported once as too long and the rest of it, up to its newline, is thrown away: a client that
/// never sends a newline costs at most that much memory.
public struct ControlLineSplitter: Sendable {
    public static let maximumLineLength = 64 * 1024

    public enum Piece: Equatable, Sendable {
        /// A complete line without its `\n` (or `\r\n`).
        case line([UInt8])
        /// A line went past the limit; what follows up to its newline is discarded.
        case tooLong
    }

    private var pending: [UInt8] = []
    private var discarding = false
    private let limit: Int

    public init(maximumLineLength: Int = Self.maximumLineLength) {
        limit = maximumLineLength
    }

    /// Bytes held for a line not yet ended.
    public var pendingCount: Int { pending.count }

    /// Adds bytes as they arrived and hands each complete piece to `handle`, in order.
    public mutating func append(_ bytes: [UInt8], _ handle: (Piece) -> Void) {
        bytes.withUnsafeBytes { append($0, handle) }
    }

    /// The same for bytes in place (a socket's read buffer). Concrete rather than generic: a
    /// hostile client may send megabytes of one line, and each byte must cost next to nothing.
    public mutating func append(_ bytes: UnsafeRawBufferPointer, _ handle: (Piece) -> Void) {
        var start = 0
        let count = bytes.count
        while start < count {
            var end = start
            while end < count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            if !discarding {
                if pending.count + (end - start) > limit {
                    pending = []
                    discarding = true
                    handle(.tooLong)
                } else {
                    pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start ..< end]))
                }
            }
            guard end < count else { return }
            if discarding {
                discarding = false
            } else {
                if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                handle(.line(pending))
            }
            pending.removeAll(keepingCapacity: pending.count <= 4096)
            start = end + 1
        }
    }
}
