import DecibarCore
import DecibarRender

/// Where a render's frames go: `PNGFolderSink` (a folder of PNG frames), `FFmpegSink` (the ffmpeg
/// program) or `MP4EncoderSink` (an MP4 encoded in this process), as `RenderOutput.open` picks by
/// the destination's kind. Each writes into a partial beside its destination (see
/// `PartialOutput`) that only `finish` renames, so OUT appears complete or not at all.
protocol FrameSink: AnyObject {
    /// The destination, without a trailing slash.
    var path: String { get }

    /// Reads the frame just drawn on `canvas`, in the pixel format this sink takes, and writes it.
    func writeFrame(from canvas: OffscreenCanvas) throws(CommandFailure)

    /// Hands over the file's samples as they are decoded (interleaved, at the file's rate).
    func write(audio samples: UnsafeBufferPointer<Float>)

    /// Ends the output and moves it to `path`. On a failure the partial is still there: the
    /// caller abandons it, as after any other failure.
    func finish() throws(CommandFailure)

    /// Stops whatever writes the output and removes the partial: nothing half-written is left.
    func abandon()
}

extension FrameSink {
    /// Only an encoder in this process takes the samples; the ffmpeg program reads the file itself.
    func write(audio samples: UnsafeBufferPointer<Float>) {}

    /// The failure that names this output and why it cannot be written.
    func cannotWrite(_ reason: String) -> CommandFailure {
        CommandFailure(message: "cannot write \(path.escapingControlCharacters): \(reason)")
    }

    /// The failure of a render interrupted while this output was being written or finished.
    var interrupted: CommandFailure {
        CommandFailure(message: "interrupted; nothing was written to \(path.escapingControlCharacters)", status: 130)
    }
}
