import DecibarAudio
import DecibarCore

/// `render --watermark`: a picture (a logo, its transparency kept) drawn over every frame in a
/// corner of the safe area (`WatermarkLayout`).
struct Watermark {
    /// Sharp at the largest size drawn (an eighth of 2160 pixels).
    static let largestSide = 512

    let picture: Picture
    let corner: WatermarkLayout.Corner

    /// The watermark `path` names, or nil for none. A file that is not a picture is an error.
    static func load(_ path: String?, corner: WatermarkLayout.Corner) throws(CommandFailure) -> Watermark? {
        guard let path else { return nil }
        do {
            return Watermark(picture: try CoverArt.firstPicture(try CoverArt.openPicture(path), largestSide: largestSide), corner: corner)
        } catch {
            throw CommandFailure(message: "--watermark \(path.escapingControlCharacters): \(CoverArt.reason(error))")
        }
    }
}
