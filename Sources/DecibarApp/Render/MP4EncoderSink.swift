import DecibarAudio
import DecibarCore
import DecibarRender

/// An MP4 encoded in this process: H.264 from NV12 frames read straight into an `EncodingThread`'s
/// slots, AAC from the samples the render decoded.
final class MP4EncoderSink: FrameSink {
    private let partial: PartialOutput
    private let encoder: EncodingThread
    private let isInterrupted: () -> Bool

    var path: String { partial.destination }

    /// Seconds past which an MP4 is written in fragments, so a long render's memory stays flat;
    /// shorter ones keep one index first, which every site and player takes (docs/render.md).
    static let fragmentedAfter: Double = 20 * 60

    /// Opens the encoder on `partial` for frames of `width` by `height` and the samples of `audio`.
    init(partial: PartialOutput, width: Int, height: Int, fps: Int, audio: RenderOutput.DecodedAudio,
         isInterrupted: @escaping () -> Bool) throws(CommandFailure) {
        var settings = VideoFileEncoder.Settings(width: width, height: height, fps: fps, audioSampleRate: audio.sampleRate,
                                                 audioChannelCount: audio.channelCount, audioFrameLimit: audio.frameLimit)
        settings.fragmented = Double(audio.frameLimit) > Self.fragmentedAfter * Double(audio.sampleRate)
        do throws(VideoEncoderError) {
            encoder = EncodingThread(encoder: try VideoFileEncoder(path: partial.path, settings: settings),
                                     frameBytes: NV12Frame.byteCount(width: width, height: height))
        } catch {
            partial.discard()
            throw CommandFailure(message: "cannot write \(partial.destination.escapingControlCharacters): \(error.reason)")
        }
        self.partial = partial
        self.isInterrupted = isInterrupted
    }

    /// Reads the frame as NV12, top row first, into the next free slot; waits while all are taken.
    func writeFrame(from canvas: OffscreenCanvas) throws(CommandFailure) {
        encoder.writeFrame { canvas.readNV12(into: $0) }
        if let failure = encoder.failure { throw cannotWrite(failure) }
    }

    func write(audio samples: UnsafeBufferPointer<Float>) {
        encoder.writeAudio(samples)
    }

    /// Waits for every queued frame and the end of the file, and moves it to its name.
    func finish() throws(CommandFailure) {
        let failure = encoder.finish()
        if isInterrupted() { throw interrupted }
        if let failure { throw cannotWrite(failure) }
        try partial.commit()
    }

    func abandon() {
        encoder.abandon()
        partial.discard()
    }
}
