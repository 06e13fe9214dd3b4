/// The track a player has open, as media keys, `playerctl` and status bars see it (MPRIS metadata).
public struct MediaTrack: Sendable, Equatable {
    /// An object path naming the track; a new one for each track opened.
    public var id: String
    /// Microseconds; nil while unknown.
    public var length: Int64?
    public var title: String
    public var artists: [String]
    public var album: String?
    /// A `file://` URL, or the address of a streamed track.
    public var url: String
    /// A `file://` URL of the track's cover picture, if it has one.
    public var artURL: String?
    /// The track's lyrics (its caption file's text, a line each), if it has them: `xesam:asText`.
    public var lyrics: String?

    public init(id: String, length: Int64?, title: String, artists: [String], album: String?, url: String) {
        self.id = id
        self.length = length
        self.title = title
        self.artists = artists
        self.album = album
        self.url = url
    }

    /// The track at `index` of a playlist: the tags' title, or the file's name when it has none.
    public init(index: Int, path: String, tags: TrackTags, duration: Double, artURL: String? = nil, lyrics: String? = nil) {
        let location = MediaLocation(path)
        let name = location.displayName
        self.init(id: Self.id(ofIndex: index), length: duration > 0 ? Int64((duration * 1_000_000).rounded()) : nil,
                  title: tags.title.flatMap { $0.isEmpty ? nil : $0 } ?? name,
                  artists: tags.artist.flatMap { $0.isEmpty ? nil : [$0] } ?? [], album: tags.album.flatMap { $0.isEmpty ? nil : $0 },
                  url: location == .remote(path) ? path : Self.fileURL(path))
        self.artURL = artURL
        self.lyrics = lyrics
    }

    /// The id of the track at `index` of the list.
    public static func id(ofIndex index: Int) -> String { "/org/decibar/track/\(index)" }

    /// The index in the list that `id` names, if it names one.
    public static func index(ofID id: String) -> Int? {
        let prefix = "/org/decibar/track/"
        guard id.hasPrefix(prefix), let index = Int(id.dropFirst(prefix.count)), index >= 0,
              Self.id(ofIndex: index) == id else { return nil }
        return index
    }

    /// `path` as a file URL: percent-encoded except for unreserved characters and `/`.
    public static func fileURL(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes = Array("file://".utf8)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "0") ... UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The path of a `file://` URL (or of a plain absolute path); nil for other schemes.
    public static func path(fromURI uri: String) -> String? {
        if uri.hasPrefix("/") { return uri }
        guard uri.hasPrefix("file://") else { return nil }
        var rest = Array(uri.utf8.dropFirst(7))
        // file://host/path: only the local host.
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
            let host = String(decoding: rest[..<slash], as: UTF8.self)
            guard host.isEmpty || host == "localhost" else { return nil }
            rest = Array(rest[slash...])
        } else {
            return nil
        }
        var decoded: [UInt8] = []
        var index = 0
        func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while index < rest.count {
            if rest[index] == UInt8(ascii: "%"), index + 2 < rest.count, let high = hexValue(rest[index + 1]), let low = hexValue(rest[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(rest[index])
                index += 1
            }
        }
        guard !decoded.contains(0) else { return nil }
        return String(decoding: decoded, as: UTF8.self)
    }
}
