import DecibarAudio
import DecibarCore

/// `--backdrop VIDEO`: a moving picture behind a composed frame, started again from its beginning
/// each time it ends, so it fills a render of any length. Frame k shows the source frame on screen
/// at k/fps, counted around the loop; decoded in order on the render's thread, so every render is
/// the same.
struct LoopingVideo {
    private let decoder: VideoFileDecoder
    /// The size decoded: enough to cover the frame, never more than the source's own.
    private let width: Int
    private let height: Int
    private var upcoming: Picture?
    /// The render's time at which the current pass began, and where the pass's last frame ends.
    private var passStart = 0.0
    private var passEnd = 0.0
    private var stopped = false
    /// Why the picture stopped moving, if it did (said once, after the render).
    private(set) var problem: String?

    /// Whether `decoder` (whose first picture was just read) holds more than one: a video, not a picture.
    static func moves(_ decoder: VideoFileDecoder) -> Bool {
        var second = Picture()
        return (try? decoder.read(into: &second, width: 16, height: 16)) == true
    }

    init(path: String, coveringWidth canvasWidth: Int, height canvasHeight: Int) throws(AudioFileError) {
        decoder = try VideoFileDecoder(path: path)
        let sourceHeight = Double(decoder.width) / decoder.aspectRatio
        let scale = min(1, max(Double(canvasWidth) / Double(decoder.width), Double(canvasHeight) / sourceHeight))
        width = max(1, Int((Double(decoder.width) * scale).rounded()))
        height = max(1, Int((sourceHeight * scale).rounded()))
    }

    /// Decodes up to `time`; gives the frame to show when it changed.
    mutating func advance(to time: Double) -> Picture? {
        var fresh: Picture?
        while !stopped {
            if upcoming == nil {
                var picture = Picture()
                do {
                    if try decoder.read(into: &picture, width: width, height: height) {
                        passEnd = max(passEnd, picture.time + picture.duration)
                        upcoming = picture
                    } else if passEnd > 0 {
                        passStart += passEnd
                        passEnd = 0
                        try decoder.seek(to: 0, exact: true)
                        continue
                    } else {
                        stopped = true
                    }
                } catch {
                    problem = "\(error.description); the backdrop stops there"
                    stopped = true
                }
            }
            guard let next = upcoming, passStart + next.time <= time + 1e-6 else { break }
            fresh = next
            upcoming = nil
        }
        return fresh
    }
}
