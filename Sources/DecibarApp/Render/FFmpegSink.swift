import DecibarCore
import DecibarRender
import Foundation

/// The ffmpeg program, fed frames on its standard input: .mov, .webm, .gif, and an MP4 that
/// cannot be encoded in this process (one with a subtitle track). ffmpeg reads the audio from the
/// file itself and writes the partial by its path.
final class FFmpegSink: FrameSink {
    private let partial: PartialOutput
    private let ffmpeg: ChildProcess
    private let isInterrupted: () -> Bool
    /// Frames go as NV12 (converted on the GPU) rather than RGBA: for H.264, whose 4:2:0 is what
    /// it encodes anyway, when the size allows it.
    private let takesNV12: Bool
    /// The NV12 frame on its way to ffmpeg, made once.
    private var scratch: [UInt8] = []

    var path: String { partial.destination }

    /// Debian 12's libx264 reads memory it has not written: the same frames encode to other bytes
    /// when that memory held something else (with `MALLOC_PERTURB_` 85 against none, 250 of the
    /// 300 frames of a 10 s render differed), which under load, with the encoder's threads allocating in
    /// another order, it can. 255 has glibc hand ffmpeg every block zeroed (its bytes when
    /// nothing was there before), so renders of the same frames are the same whatever the load.
    /// NV12 frames too (at 320x180, whose rows are not a multiple of 16, 85 against none differ).
    /// The price is memory: every block ffmpeg allocates is touched, 1080p's encoder takes 80 MB more.
    static let repeatableEncoding = ["MALLOC_PERTURB_": "255"]

    /// Starts ffmpeg writing `partial`. `arguments`: its command line (`RenderOutput.ffmpegArguments`).
    init(partial: PartialOutput, arguments: [String], kind: RenderOutput.Kind, takesNV12: Bool,
         isInterrupted: @escaping () -> Bool) throws(CommandFailure) {
        self.partial = partial
        self.takesNV12 = takesNV12
        self.isInterrupted = isInterrupted
        ffmpeg = try ChildProcess("ffmpeg", arguments: arguments, feedsInput: true, environment: Self.repeatableEncoding,
                                  isInterrupted: isInterrupted,
                                  missing: "render to \(kind.rawValue) needs the ffmpeg program (apt-get install ffmpeg)")
    }

    /// Writes the frame as NV12 top row first when `takesNV12`, else as RGBA bottom row first
    /// (ffmpeg flips it).
    func writeFrame(from canvas: OffscreenCanvas) throws(CommandFailure) {
        guard takesNV12 else { return try send(canvas.readRGBA()) }
        if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: NV12Frame.byteCount(width: canvas.width, height: canvas.height)) }
        scratch.withUnsafeMutableBytes { canvas.readNV12(into: $0) }
        try send(scratch)
    }

    private func send(_ frame: [UInt8]) throws(CommandFailure) {
        switch ffmpeg.write(frame) {
        case .written:
            return
        case .interrupted:
            throw interrupted
        case .stalled:
            throw cannotWrite("ffmpeg stopped reading frames")
        case .closed:
            if isInterrupted() { throw interrupted }
            _ = ffmpeg.finish(timeout: 2)
            let reason = ffmpeg.lastErrorLine
            throw cannotWrite("ffmpeg stopped" + (reason.isEmpty ? "" : ": \(reason)"))
        }
    }

    /// Ends the frames, waits for ffmpeg to write the rest, and moves the result to its name.
    func finish() throws(CommandFailure) {
        let status = ffmpeg.finish()
        if isInterrupted() { throw interrupted }
        guard status == 0 else {
            let reason = ffmpeg.lastErrorLine
            throw cannotWrite("ffmpeg: \(reason.isEmpty ? "status \(status)" : reason)")
        }
        try partial.commit()
    }

    func abandon() {
        ffmpeg.stop()
        partial.discard()
    }
}
