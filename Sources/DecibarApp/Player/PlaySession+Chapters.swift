import DecibarCore
import Foundation

/// Chapters: the file's own (FFmpeg reads them from MP4/M4B, Matroska and Ogg), or the tracks of a
/// cue sheet beside it; `ctl chapter next|previous` and Page Up/Down move between them. MPRIS's
/// Next and Previous stay tracks.
extension PlaySession {
    /// Seeks to the next chapter (or back, as a CD player does); false when there is none to go to.
    @discardableResult
    func seekChapter(forward: Bool) -> Bool {
        guard hasTrack, !chapters.isEmpty else { return false }
        guard let target = forward ? chapters.next(after: playhead) : chapters.previous(before: playhead) else { return false }
        seek(to: target.start)
        return true
    }

    /// The chapter playing now, if the track has chapters.
    var currentChapter: Chapter? { chapters.index(at: playhead).map { chapters[$0] } }

    /// The tracks of `NAME.cue` or `NAME.EXT.cue` beside a file on disk, as chapters (a sheet of
    /// several files: those of this one). A sheet that is not UTF-8 is read as Latin-1, as old
    /// rippers wrote them.
    static func cueChapters(beside path: String) -> [Chapter] {
        guard case .file(let file) = MediaLocation(path) else { return [] }
        let name = (file as NSString).lastPathComponent
        for sheet in [(file as NSString).deletingPathExtension + ".cue", file + ".cue"] where sheet != file {
            guard let bytes = try? BoundedFile.read(sheet, limit: 1 << 20) else { continue }
            let text = String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
            if let chapters = CueSheet.chapters(from: text, fileName: name) { return chapters }
        }
        return []
    }
}
