import DecibarCore
import Synchronization

/// Plays a file: decodes on demand into exactly the frames the server asks for.
///
/// Decoded chunks rarely match a request, so the rest of a chunk waits in a small buffer that is
/// reused (it only grows when a codec frame is larger than any before).
public final class FilePlaybackSource: PlaybackSource {
    public let decoder: AudioFileDecoder
    public var sampleRate: Int { decoder.sampleRate }
    public var channelCount: Int { decoder.channelCount }
    public var speakerPositions: [SpeakerPosition] { decoder.speakerPositions }
    private var leftover: [Float] = []
    private var leftoverStart = 0
    /// The last decoding problem, if any (the file then ends early). Set on the audio server's
    /// thread, read by the player's owner.
    public var failure: AudioFileError? { failureBox.withLock { $0 } }
    private let failureBox = Mutex<AudioFileError?>(nil)

    /// Opens the file and decodes its first chunk, so that a file with a header but no playable
    /// audio fails here, before anything is said to be playing.
    public init(path: String) throws(AudioFileError) {
        decoder = try AudioFileDecoder(path: path)
        _ = try decoder.read { leftover.append(contentsOf: $0) }
    }

    public func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let channels = channelCount
        var written = 0
        while written < frames {
            let available = (leftover.count - leftoverStart) / channels
            if available > 0 {
                let take = min(available, frames - written)
                leftover.withUnsafeBufferPointer { source in
                    (buffer + written * channels).update(from: source.baseAddress! + leftoverStart, count: take * channels)
                }
                leftoverStart += take * channels
                written += take
                continue
            }
            leftover.removeAll(keepingCapacity: true)
            leftoverStart = 0
            do {
                guard try decoder.read({ leftover.append(contentsOf: $0) }) else { break }
            } catch {
                failureBox.withLock { $0 = error }
                break
            }
        }
        return written
    }

    public func seek(toFrame frame: Int64) {
        leftover.removeAll(keepingCapacity: true)
        leftoverStart = 0
        do {
            try decoder.seek(toFrame: frame)
        } catch {
            failureBox.withLock { $0 = error }
        }
    }
}
