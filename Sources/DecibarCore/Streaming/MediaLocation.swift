/// What a track names: a file, or an address to stream over HTTP(S). Only `http://` and `https://`
/// (in any case) are addresses; every other name is a file's, whatever it looks like.
public enum MediaLocation: Sendable, Equatable {
    case file(String)
    case remote(String)

    public init(_ name: String) {
        let lowered = name.prefix(8).lowercased()
        self = lowered.hasPrefix("http://") || lowered.hasPrefix("https://") ? .remote(name) : .file(name)
    }

    /// What a file manager or a browser drops: a `file://` URI becomes its path (percent escapes
    /// decoded); an address or a plain path stays as it is.
    public static func dropped(_ text: String) -> String {
        let trimmed = text.trimmingSpaces
        guard trimmed.lowercased().hasPrefix("file://") else { return String(trimmed) }
        var rest = trimmed.dropFirst("file://".count)
        // file://host/path: only the local host's files can be read.
        if !rest.hasPrefix("/"), let slash = rest.firstIndex(of: "/") { rest = rest[slash...] }
        var bytes: [UInt8] = []
        var utf8 = Array(rest.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let high = hexValue(utf8[utf8.startIndex]),
               let low = hexValue(utf8[utf8.startIndex + 1]) {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    public static func isRemote(_ name: String) -> Bool {
        if case .remote = MediaLocation(name) { return true }
        return false
    }

    /// The name as given.
    public var name: String {
        switch self {
        case .file(let path): path
        case .remote(let url): url
        }
    }

    /// The last part of the name, for titles: a file's name, or an address's last path segment
    /// without its query (the host when the path is empty).
    public var displayName: String {
        switch self {
        case .file(let path):
            return path.split(separator: "/").last.map(String.init) ?? path
        case .remote(let url):
            let withoutScheme = url.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).dropFirst(2).first ?? ""
            let pathPart = withoutScheme.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let segments = pathPart.split(separator: "/")
            return segments.count > 1 ? String(segments.last!) : String(segments.first ?? Substring(url))
        }
    }
}
