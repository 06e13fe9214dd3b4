/// What a track names: a file, or an address to stream over HTTP(S). Only `http://` and `https://`
/// (in any case) are addresses; every other name is a file's, whatever it looks like.
public enum MediaLocation: Sendable, Equatable {
    case file(String)
    case remote(String)

    public init(_ name: String) {
        let lowered = name.prefix(8).lowercased()
        self = lowered.hasPrefix("http://") || lowered.hasPrefix("https://") ? .remote(name) : .file(name)
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
