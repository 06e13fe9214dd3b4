import DecibarAudio
import DecibarCore

/// A render's picture: frame k of the output shows the source frame on screen at k/fps, the latest
/// one whose time has come (decoded on the render's thread, in order, so every render is the same).
struct RenderedVideo {
    private let decoder: VideoFileDecoder
    private var upcoming: Picture?
    private var ended = false
    /// Why the picture stopped early, if it did (said once, after the render).
    private(set) var problem: String?

    init(decoder: VideoFileDecoder) {
        self.decoder = decoder
    }

    /// Decodes up to `time`; gives the picture's place and, when it changed, the frame to upload.
    mutating func advance(to time: Double, layout: PlayLayout, videoLayout: VideoLayout) throws -> (area: PictureLayout, fresh: Picture?) {
        let area = PictureLayout(videoLayout, aspectRatio: decoder.aspectRatio, width: layout.width, areaHeight: layout.barsHeight)
        guard let rect = area.picture else { return (area, nil) }
        let size = PictureLayout.decodeSize(for: rect, pictureWidth: decoder.width, pictureHeight: decoder.height)
        var fresh: Picture?
        while !ended {
            if upcoming == nil {
                var picture = Picture()
                do {
                    if try decoder.read(into: &picture, width: size.width, height: size.height) {
                        upcoming = picture
                    } else {
                        ended = true
                    }
                } catch {
                    problem = "\(error.description); the picture stops there"
                    ended = true
                }
            }
            guard let next = upcoming, next.time <= time + 1e-6 else { break }
            fresh = next
            upcoming = nil
        }
        return (area, fresh)
    }
}
