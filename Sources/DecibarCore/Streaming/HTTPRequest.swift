/// What to fetch, and how long to wait for it.
public struct HTTPRequest: Sendable, Equatable {
    public var url: String
    /// The first byte wanted; a request from 0 with no `end` asks for the whole body.
    public var start: Int64
    /// The last byte wanted (inclusive), or nil for "to the end".
    public var end: Int64?
    /// Seconds to wait for the connection.
    public var connectTimeout: Double
    /// Seconds with no byte received (before or during the body) after which the transfer fails.
    public var stallTimeout: Double
    public var maximumRedirects: Int
    /// Asks a radio server to interleave stream titles (ICY metadata) with the audio.
    public var asksForStreamTitles: Bool
    /// A validator (ETag or Last-Modified) that the range must still belong to; a server whose file
    /// changed answers with the whole new file instead.
    public var ifRange: String?
    public var userAgent: String

    public init(url: String, start: Int64 = 0, end: Int64? = nil, connectTimeout: Double = 10, stallTimeout: Double = 10,
                maximumRedirects: Int = 8, asksForStreamTitles: Bool = false, ifRange: String? = nil,
                userAgent: String = "Decibar") {
        self.url = url
        self.start = start
        self.end = end
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.maximumRedirects = maximumRedirects
        self.asksForStreamTitles = asksForStreamTitles
        self.ifRange = ifRange
        self.userAgent = userAgent
    }
}
