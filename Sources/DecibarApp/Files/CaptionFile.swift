import DecibarCore
import Foundation

/// Finds and reads the captions of a render: a file named by `--captions`, or one beside the audio
/// with its name and `.lrc`, `.srt` or `.vtt`.
enum CaptionFile {
    /// Larger than any subtitle file of a long film (a few hundred KB): refused unread.
    static let largestBytes = 16 << 20

    /// The captions to draw: `option` is a path, `none`, or nil to look beside `audio`. A named
    /// file that cannot be read is an error; one found beside that cannot is said and left out.
    static func captions(option: String?, audio: String) throws(CommandFailure) -> CaptionTrack? {
        if option == "none" { return nil }
        if let option { return try load(option, naming: "--captions ") }
        return captions(beside: audio)
    }

    /// The captions beside `audio`, if it has a file of them that reads; one that does not is said.
    static func captions(beside audio: String) -> CaptionTrack? {
        guard let found = beside(audio) else { return nil }
        do {
            return try load(found, naming: "")
        } catch {
            writeError("\(error.message); the captions are left out")
            return nil
        }
    }

    /// A caption file beside `audio` with the same name, LRC first (lyrics for music), or nil.
    static func beside(_ audio: String) -> String? {
        guard !MediaLocation.isRemote(audio) else { return nil }
        let stem = (audio as NSString).deletingPathExtension
        return ["lrc", "srt", "vtt"].lazy.map { stem + "." + $0 }.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    static func load(_ path: String, naming prefix: String) throws(CommandFailure) -> CaptionTrack {
        let name = prefix + path.escapingControlCharacters
        guard let format = CaptionTrack.format(ofPath: path) else {
            throw CommandFailure(message: "\(name): not a caption file (use .srt, .vtt or .lrc)")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw CommandFailure(message: "\(name): no such file") }
        if isFolder.boolValue { throw CommandFailure(message: "\(name): is a folder, not a caption file") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CommandFailure(message: "\(name): cannot be read") }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: largestBytes + 1) ?? Data()
        } catch {
            throw CommandFailure(message: "\(name): cannot be read")
        }
        if data.count > largestBytes { throw CommandFailure(message: "\(name): larger than 16 MiB, not a caption file") }
        do {
            return try CaptionTrack(bytes: [UInt8](data), format: format)
        } catch {
            throw CommandFailure(message: "\(name): \(error.message)")
        }
    }

    /// Writes `track` as SubRip to a new file in the temporary folder, for ffmpeg to mux; the
    /// caller removes it.
    static func temporarySubRip(_ track: CaptionTrack) throws(CommandFailure) -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("decibar-captions-\(UUID().uuidString).srt")
        do {
            try Data(track.subRipText.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        } catch {
            throw CommandFailure(message: "cannot write the subtitle track to \(path): \(error.localizedDescription)")
        }
        return path
    }
}
