/// What a file's tags say about it; each field is nil when the file does not say.
public struct TrackTags: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?

    public init(title: String? = nil, artist: String? = nil, album: String? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
    }
}
