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
    public mutating func append(_ bytes: some Sequence<UInt8>, _ handle: (Piece) -> Void) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if discarding {
                    discarding = false
                } else {
                    if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                    handle(.line(pending))
                }
                pending.removeAll(keepingCapacity: pending.count <= 4096)
            } else if !discarding {
                pending.append(byte)
                if pending.count > limit {
                    pending = []
                    discarding = true
                    handle(.tooLong)
                }
            }
        }
    }
}
