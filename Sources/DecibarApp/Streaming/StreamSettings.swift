/// How streamed tracks are fetched and kept.
public struct StreamSettings: Sendable, Equatable {
    /// Seconds to wait for a connection.
    public var connectTimeout: Double
    /// Seconds without a byte (before the answer or during the body) after which a download fails.
    public var stallTimeout: Double
    /// Bytes the stream cache may hold in all; the least recently used downloads go first.
    public var cacheBytes: Int64
    /// Seconds of audio decoded before playing starts (and after the network fell behind).
    public var startSeconds: Double
    /// Tries to continue a download whose connection dropped, from where it stopped.
    public var resumeAttempts: Int
    /// Bytes of an endless stream kept (the rolling window behind the playhead).
    public var liveWindowBytes: Int64
    /// Where the cache lives; nil for the default (`$XDG_CACHE_HOME/decibar/streams`).
    public var cacheDirectory: String?

    public init(connectTimeout: Double = 10, stallTimeout: Double = 10, cacheBytes: Int64 = 1 << 30, startSeconds: Double = 1,
                resumeAttempts: Int = 1, liveWindowBytes: Int64 = 8 << 20, cacheDirectory: String? = nil) {
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.cacheBytes = cacheBytes
        self.startSeconds = startSeconds
        self.resumeAttempts = resumeAttempts
        self.liveWindowBytes = liveWindowBytes
        self.cacheDirectory = cacheDirectory
    }
}
