import DecibarAudio
import DecibarCore
import Foundation

/// A composed video's cover: `--cover PATH`, or as the desktop finds it (a cover or folder picture
/// beside the audio, else the art embedded in it), decoded once, with a small blurred copy for the
/// backdrop.
struct CoverArt {
    /// At most this many pixels on its longer side: sharp at 1080p, where a cover is drawn 500–900 wide.
    static let largestSide = 1024
    /// The backdrop's copy: this small, then blurred, so the GPU's scaling up smooths it further.
    static let backdropSide = 48

    let picture: Picture
    let backdrop: Picture

    /// The cover for `option` (a path, `none`, or nil to look for one). A path that is not a
    /// picture is an error; a picture found beside that is not is said and passed over.
    static func find(option: String?, audio: String) throws(CommandFailure) -> CoverArt? {
        if option == "none" { return nil }
        if let option {
            do {
                return try load(option)
            } catch {
                throw CommandFailure(message: "--cover \(option.escapingControlCharacters): \(Self.reason(error))")
            }
        }
        if let beside = PlaySession.coverBeside(audio) {
            do {
                return try load(beside)
            } catch {
                writeError("\(beside.escapingControlCharacters): \(Self.reason(error)); the cover is looked for in the audio instead")
            }
        }
        guard !MediaLocation.isRemote(audio), let decoder = try? VideoFileDecoder(path: audio), decoder.isStill else { return nil }
        return try? read(decoder)
    }

    static func reason(_ error: AudioFileError) -> String {
        error.reason == VideoFileDecoder.noPicture ? "not a picture" : error.reason
    }

    static func load(_ path: String) throws(AudioFileError) -> CoverArt {
        try read(try openPicture(path))
    }

    /// A decoder for the picture at `path`; a folder is refused before FFmpeg sees it.
    static func openPicture(_ path: String) throws(AudioFileError) -> VideoFileDecoder {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw AudioFileError(path: path, reason: "is a folder, not a picture")
        }
        return try VideoFileDecoder(path: path)
    }

    /// The first picture `decoder` gives, at most `largestSide` across, and its blurred copy.
    private static func read(_ decoder: VideoFileDecoder) throws(AudioFileError) -> CoverArt {
        let picture = try firstPicture(decoder, largestSide: largestSide)
        // The backdrop from the decoded cover, scaled down by averaging, then blurred.
        let small = picture.shrunk(toLongerSide: backdropSide)
        return CoverArt(picture: picture, backdrop: small.blurred(radius: 3))
    }

    /// The first picture `decoder` gives, at most `largestSide` across (a cover, a watermark).
    static func firstPicture(_ decoder: VideoFileDecoder, largestSide: Int) throws(AudioFileError) -> Picture {
        let scale = min(1, Double(largestSide) / Double(max(decoder.width, decoder.height)))
        func size(_ scale: Double) -> (Int, Int) {
            (max(1, Int((Double(decoder.width) * scale).rounded())), max(1, Int((Double(decoder.width) / decoder.aspectRatio * scale).rounded())))
        }
        var picture = Picture()
        let (width, height) = size(scale)
        guard try decoder.read(into: &picture, width: width, height: height) else {
            throw AudioFileError(path: decoder.path, reason: "not a picture")
        }
        return picture
    }
}
