/// What a file's tags say about it; each field is nil when the file does not say.
public struct TrackTags: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    /// The file's chapters (MP4/M4B, Matroska, Ogg), in order; empty when it has none.
    public var chapters: [Chapter]
    /// The cover picture embedded in the file, as stored (JPEG or PNG bytes), and its extension.
    public var cover: (bytes: [UInt8], fileExtension: String)?

    public init(title: String? = nil, artist: String? = nil, album: String? = nil, chapters: [Chapter] = [],
                cover: (bytes: [UInt8], fileExtension: String)? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
        self.chapters = chapters
        self.cover = cover
    }

    public static func == (left: TrackTags, right: TrackTags) -> Bool {
        left.title == right.title && left.artist == right.artist && left.album == right.album && left.chapters == right.chapters
            && left.cover?.bytes == right.cover?.bytes && left.cover?.fileExtension == right.cover?.fileExtension
    }
}
