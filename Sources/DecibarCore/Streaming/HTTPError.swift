/// Why a download failed, in one line a user understands.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case status(Int)
        case refused
        case resolve
        case timeout
        case redirects
        case tls
        case badAddress
        case network
        case cancelled
    }

    public let kind: Kind
    public let message: String
    public var description: String { message }

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        // Shown as one line.
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
