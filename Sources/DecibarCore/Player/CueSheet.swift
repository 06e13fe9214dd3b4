/// The tracks of a cue sheet (the `.cue` beside a CD image's FLAC) as chapters.
///
/// Only what places and names a track is read: `FILE`, `TRACK`, `TITLE` and `INDEX 01` (minutes,
/// seconds and frames of 1/75 s); every other line (REM, PERFORMER, FLAGS, PREGAP...) is skipped.
public enum CueSheet {
    /// The chapters of the tracks: all of them when the sheet names one FILE (whatever its name:
    /// images are often converted after the sheet was written), else those in `fileName`'s
    /// section; nil when that gives no track a start.
    public static func chapters(from text: String, fileName: String? = nil) -> [Chapter]? {
        struct Track {
            var number: Int
            var title: String?
            var start: Double?
            var file: String?
        }
        var tracks: [Track] = []
        var files: [String] = []
        // (A byte order mark would stick to the first keyword.)
        for line in text.drop(while: { $0 == "\u{FEFF}" }).split(whereSeparator: \.isNewline) {
            let words = Self.words(line)
            guard words.count >= 2, let keyword = words.first?.uppercased() else { continue }
            switch keyword {
            case "FILE":
                files.append(Self.lastComponent(words[1]))
            case "TRACK":
                tracks.append(Track(number: Int(words[1]) ?? tracks.count + 1, file: files.last))
            case "TITLE" where !tracks.isEmpty:
                // (A TITLE before the first TRACK is the album's.)
                tracks[tracks.count - 1].title = words[1]
            case "INDEX" where !tracks.isEmpty && words.count >= 3 && words[1] == "01":
                tracks[tracks.count - 1].start = Self.seconds(words[2])
            default:
                continue
            }
        }
        let chapters = tracks.compactMap { track -> Chapter? in
            guard files.count <= 1 || (fileName != nil && track.file == fileName), let start = track.start else { return nil }
            return Chapter(title: track.title ?? "Track \(track.number)", start: start)
        }
        return chapters.isEmpty ? nil : chapters.sorted { $0.start < $1.start }
    }

    /// `mm:ss:ff`, frames of 1/75 s; minutes may pass 99.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let minutes = Int(parts[0]), let seconds = Int(parts[1]), let frames = Int(parts[2]),
              (0 ..< 1_000_000).contains(minutes), (0 ..< 60).contains(seconds), (0 ..< 75).contains(frames) else { return nil }
        return Double(minutes * 60 + seconds) + Double(frames) / 75
    }

    /// A line's words; a quoted one keeps its spaces.
    private static func words(_ line: Substring) -> [String] { line.quotedWords }

    private static func lastComponent(_ path: String) -> String {
        String(path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? Substring(path))
    }
}
