/// What a file's tags say about it; each field is nil when the file does not say.
public struct TrackTags: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    /// The file's chapters (MP4/M4B, Matroska, Ogg), in order; empty when it has none.
    public var chapters: [Chapter]

    public init(title: String? = nil, artist: String? = nil, album: String? = nil, chapters: [Chapter] = []) {
        self.title = title
        self.artist = artist
        self.album = album
        self.chapters = chapters
    }
}
