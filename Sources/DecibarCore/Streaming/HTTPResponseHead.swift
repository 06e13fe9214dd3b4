/// The parts of a response's head that streaming uses, as the HTTP client read them.
public struct HTTPResponseHead: Sendable, Equatable {
    public var status: Int
    public var reason: String
    /// The address after redirects.
    public var finalURL: String
    public var contentLength: Int64?
    /// `bytes first-last/total` on a 206.
    public var contentRange: String?
    public var entityTag: String?
    public var lastModified: String?
    public var contentType: String?
    public var acceptsRanges: Bool
    /// `icy-metaint`: audio bytes between two stream-title blocks.
    public var streamTitleInterval: Int?
    /// `icy-name`: a radio station's name.
    public var stationName: String?

    public init(status: Int, reason: String = "", finalURL: String = "", contentLength: Int64? = nil, contentRange: String? = nil,
                entityTag: String? = nil, lastModified: String? = nil, contentType: String? = nil, acceptsRanges: Bool = false,
                streamTitleInterval: Int? = nil, stationName: String? = nil) {
        self.status = status
        self.reason = reason
        self.finalURL = finalURL
        self.contentLength = contentLength
        self.contentRange = contentRange
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.contentType = contentType
        self.acceptsRanges = acceptsRanges
        self.streamTitleInterval = streamTitleInterval
        self.stationName = stationName
    }

    /// Where this response's body starts in the whole file: the range's first byte on a 206, 0 otherwise
    /// (a 200 is the whole file, even when a range was asked for).
    public var bodyStart: Int64 {
        guard status == 206, let range = parsedRange else { return 0 }
        return range.first
    }

    /// The whole file's size: from `Content-Range` on a 206, `Content-Length` on a 200, or nil
    /// (an endless stream, or a server that does not say).
    public var totalLength: Int64? {
        if status == 206 { return parsedRange?.total }
        return contentLength
    }

    /// `bytes first-last/total`, with `*` for an unknown total.
    private var parsedRange: (first: Int64, last: Int64, total: Int64?)? {
        guard let contentRange else { return nil }
        let text = contentRange.drop { $0 == " " }
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = Int64(bounds[0].trimmingSpaces), let last = Int64(bounds[1].trimmingSpaces),
              first >= 0, last >= first else { return nil }
        let totalText = parts[1].trimmingSpaces
        if totalText == "*" { return (first, last, nil) }
        guard let total = Int64(totalText), total > last else { return nil }
        return (first, last, total)
    }

    /// What identifies this version of the file, for caches: the ETag, else Last-Modified, else nil.
    public var validator: String? { entityTag ?? lastModified }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
