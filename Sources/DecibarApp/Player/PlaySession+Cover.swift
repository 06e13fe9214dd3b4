import DecibarCore
import Foundation

/// The cover the desktop shows for a track (MPRIS `mpris:artUrl`).
extension PlaySession {
    /// Pictures beside a file that name its album's cover, in the order they are looked for.
    static let coverNames = ["cover", "folder", "front", "album"].flatMap { name in ["jpg", "jpeg", "png"].map { "\(name).\($0)" } }

    /// A picture beside the file (cover, folder, front or album, .jpg or .png, in any case), else the
    /// one embedded in it, written once into the cache under a name made from its bytes. Nil for a
    /// track with neither (and for a streamed one without an embedded picture).
    /// The path of a picture beside `path` that names its album's cover, if there is one.
    static func coverBeside(_ path: String) -> String? {
        guard case .file(let file) = MediaLocation(path) else { return nil }
        let folder = (OutputPath.absolute(file) as NSString).deletingLastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        let byName = Dictionary(names.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        return coverNames.lazy.compactMap { byName[$0] }.first.map { folder + "/" + $0 }
    }

    static func coverURL(for path: String, tags: TrackTags) -> String? {
        if let beside = coverBeside(path) { return MediaTrack.fileURL(beside) }
        guard let cover = tags.cover, let cache = CacheFolder.path else { return nil }
        let directory = cache + "/covers"
        let location = directory + "/" + String(StableHash.fnv1a(cover.bytes), radix: 16) + "." + cover.fileExtension
        if !FileManager.default.fileExists(atPath: location) {
            // Private, as the rest of the cache: it shows what a user plays.
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            PartialOutput.removeStale(for: location)
            guard let out = try? PartialOutput(destination: location) else { return nil }
            do {
                try out.write(cover.bytes)
                try out.commit()
            } catch {
                out.discard()
                return nil
            }
        }
        return MediaTrack.fileURL(location)
    }
}
