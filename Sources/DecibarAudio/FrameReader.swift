/// Decoded audio read in order, as the overview reads a file: interleaved float samples, a chunk at
/// a time, with a seek to an exact frame. `AudioFileDecoder` (FFmpeg) reads every format;
/// `SoundFileReader` (libsndfile) reads lossless files without loading FFmpeg.
public protocol FrameReader: AnyObject {
    var sampleRate: Int { get }
    var channelCount: Int { get }
    /// Frames the file states it has, if it states it (a claim, not a promise).
    var estimatedFrameCount: Int64? { get }
    /// Frames worth reserving room for: the stated count, bounded by what the file's size allows.
    var frameCountForReservation: Int64 { get }
    /// Decodes the next chunk and passes its interleaved samples (whole frames) to `body`, valid
    /// only during the call; false at the end.
    func read(_ body: (UnsafeBufferPointer<Float>) -> Void) throws(AudioFileError) -> Bool
    /// Moves so that the next `read` starts exactly at `target`.
    func seek(toFrame target: Int64) throws(AudioFileError)
}

extension AudioFileDecoder: FrameReader {}
