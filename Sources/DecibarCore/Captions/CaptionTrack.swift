/// The timed words of a track, read from SubRip (`.srt`), WebVTT (`.vtt`) or LRC synced lyrics
/// (`.lrc`), sorted by start time.
public struct CaptionTrack: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable {
        case subRip = "srt", webVTT = "vtt", lyrics = "lrc"
    }

    public let captions: [Caption]
    /// From LRC's `[ti:]` and `[ar:]`, when given.
    public let title: String?
    public let artist: String?

    /// How long the last line of lyrics shows, LRC giving no end times.
    public static let lastLyricSeconds = 8.0

    public init(captions: [Caption], title: String? = nil, artist: String? = nil) {
        // A stable sort: cues out of order are put in order, ties keep the file's order.
        self.captions = captions.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        self.title = title
        self.artist = artist
    }

    /// The format a file name's extension gives, or nil.
    public static func format(ofPath path: String) -> Format? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return Format(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// Reads `bytes` as `format`. Throws `CaptionError` (one line, with the line number) for text
    /// that is not UTF-8, holds no captions, or has a time that cannot be (negative, or an end
    /// before its start).
    public init(bytes: [UInt8], format: Format) throws(CaptionError) {
        if bytes.contains(0) { throw CaptionError("not text (it holds NUL bytes)") }
        guard var text = String(validating: bytes, as: UTF8.self) else { throw CaptionError("not text (not UTF-8)") }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.map(String.init)
        switch format {
        case .subRip, .webVTT:
            self.init(captions: try Self.cues(lines, webVTT: format == .webVTT))
        case .lyrics:
            let lyrics = try Self.lyrics(lines)
            self.init(captions: lyrics.captions, title: lyrics.title, artist: lyrics.artist)
        }
        if captions.isEmpty { throw CaptionError("no captions in it") }
    }

    /// The captions showing at `time` (overlapping cues show together), in start order.
    public func showing(at time: Double) -> [Caption] {
        // Those started by `time`, found by bisection; of them, those not yet ended (a long cue
        // that began earlier may still show, so all of them are looked at: a few thousand at most).
        var low = 0, high = captions.count
        while low < high {
            let middle = (low + high) / 2
            if captions[middle].start <= time { low = middle + 1 } else { high = middle }
        }
        return captions[..<low].filter { $0.end > time }
    }

    /// The whole text, one caption a line: what MPRIS gives as `xesam:asText`.
    public var plainText: String { captions.map(\.text).joined(separator: "\n") }
}

/// Why a caption file cannot be read, in one line (the file's name is put before it).
public struct CaptionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
