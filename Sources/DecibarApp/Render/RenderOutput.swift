import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// Where `decibar render` writes, chosen by the output's extension. An MP4 is encoded in this
/// process (`EncodingThread`: H.264 from the NV12 frames, AAC from the samples already decoded);
/// the other kinds, and an MP4 with a subtitle track, go through the ffmpeg program (frames on
/// its standard input, the original audio muxed in); a folder gets PNGs. Everything goes to a
/// partial next to OUT (see `PartialOutput`), renamed only once complete.
public final class RenderOutput {
    public enum Kind: String, CaseIterable, Sendable {
        case mp4, mov, webm, gif, pngFolder = "folder"
    }

    /// The destination, without a trailing slash.
    let path: String
    let kind: Kind
    private let partial: PartialOutput
    private let ffmpeg: ChildProcess?
    private let encoder: EncodingThread?
    /// NV12 frames on their way to the ffmpeg program.
    private var scratch: [UInt8] = []
    private var frameNumber = 0
    private let width: Int
    private let height: Int
    private let isInterrupted: () -> Bool
    /// Frames go to ffmpeg as NV12 (converted on the GPU) rather than RGBA: for H.264, whose
    /// 4:2:0 is what it encodes anyway, when the size allows it.
    let takesNV12: Bool

    public static let supported = ".mp4, .mov, .webm, .gif, or a folder (a path ending in /, or an empty folder) for PNG frames"

    /// The kind of output a path asks for, or nil for an unknown extension.
    public static func kind(of path: String) -> Kind? {
        var info = stat()
        if path.hasSuffix("/") || (stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR) {
            return .pngFolder
        }
        return Kind(rawValue: OutputPath.fileExtension(of: path)).flatMap { $0 == .pngFolder ? nil : $0 }
    }

    /// Seconds past which an MP4 is written in fragments, so a long render's memory stays flat;
    /// shorter ones keep one index first, which every site and player takes (docs/render.md).
    static let fragmentedAfter: Double = 20 * 60

    /// - Parameter audioSeconds: how much of `audio` to read: at least what the frames show (more is cut).
    /// - Parameter subtitles: a SubRip file muxed as a soft subtitle track (`--captions-track`), and
    ///   the video's length in seconds.
    /// - Parameter decoded: the rate and channel count of the samples `write(audio:)` will be given,
    ///   and how many frames of them the video lasts; an MP4 is then encoded in this process.
    init(path: String, audio: String, audioSeconds: Double, width: Int, height: Int, fps: Int, transparent: Bool,
         nv12: Bool, subtitles: Subtitles? = nil, decoded: DecodedAudio? = nil,
         isInterrupted: @escaping () -> Bool) throws(CommandFailure) {
        guard let kind = Self.kind(of: path) else {
            throw CommandFailure(message: "-o \(path): unknown kind of output; use \(Self.supported)", status: 2)
        }
        let inProcess = kind == .mp4 && nv12 && subtitles == nil && decoded != nil
        if kind != .pngFolder, !inProcess, ChildProcess.findProgram("ffmpeg") == nil {
            throw CommandFailure(message: "render to \(kind.rawValue) needs the ffmpeg program (apt-get install ffmpeg)")
        }
        PartialOutput.removeStale(for: path)
        self.kind = kind
        self.width = width
        self.height = height
        self.isInterrupted = isInterrupted
        takesNV12 = nv12 && kind == .mp4
        partial = try PartialOutput(destination: path, kind: kind == .pngFolder ? .folder : .file,
                                    fileExtension: kind == .pngFolder ? "" : kind.rawValue, keepsOpen: false, protecting: [audio])
        self.path = partial.destination
        if kind == .pngFolder {
            ffmpeg = nil
            encoder = nil
            return
        }
        if inProcess, let decoded {
            var settings = VideoFileEncoder.Settings(width: width, height: height, fps: fps, audioSampleRate: decoded.sampleRate,
                                                     audioChannelCount: decoded.channelCount, audioFrameLimit: decoded.frameLimit)
            settings.fragmented = Double(decoded.frameLimit) > Self.fragmentedAfter * Double(decoded.sampleRate)
            do throws(VideoEncoderError) {
                encoder = EncodingThread(encoder: try VideoFileEncoder(path: partial.path, settings: settings),
                                         frameBytes: NV12Frame.byteCount(width: width, height: height))
            } catch {
                partial.discard()
                throw CommandFailure(message: "cannot write \(partial.destination.escapingControlCharacters): \(error.reason)")
            }
            ffmpeg = nil
            return
        }
        encoder = nil
        ffmpeg = try ChildProcess("ffmpeg", arguments: Self.ffmpegArguments(kind: kind, audio: audio, audioSeconds: audioSeconds,
                                                                           width: width, height: height, fps: fps,
                                                                           transparent: transparent, nv12: takesNV12, subtitles: subtitles,
                                                                           output: partial.path),
                                  feedsInput: true, environment: Self.repeatableEncoding, isInterrupted: isInterrupted,
                                  missing: "render to \(kind.rawValue) needs the ffmpeg program (apt-get install ffmpeg)")
    }

    /// Debian 12's libx264 reads memory it has not written: the same frames encode to other bytes
    /// when that memory held something else (with `MALLOC_PERTURB_` 85 against none, 250 of the
    /// 300 frames of a 10 s render differed), which under load, with the encoder's threads allocating in
    /// another order, it can. 255 has glibc hand ffmpeg every block zeroed (its bytes when
    /// nothing was there before), so renders of the same frames are the same whatever the load.
    /// NV12 frames too (at 320x180, whose rows are not a multiple of 16, 85 against none differ).
    /// The price is memory: every block ffmpeg allocates is touched, 1080p's encoder takes 80 MB more.
    static let repeatableEncoding = ["MALLOC_PERTURB_": "255"]

    /// The ffmpeg command line for each kind of output. Frames arrive bottom row first (OpenGL's
    /// order), hence the vertical flip. Paths go through ffmpeg's `file:` protocol, so a name is
    /// never read as another protocol (`concat:`, `http:`) or an option.
    /// A soft subtitle track: a SubRip file, and how long the video is.
    struct Subtitles {
        var path: String
        var videoSeconds: Double
    }

    /// The decoded audio an in-process encoder takes: its format, and the frames the video lasts.
    struct DecodedAudio {
        var sampleRate: Int
        var channelCount: Int
        var frameLimit: Int64
    }

    /// The kinds whose containers hold a subtitle track (mov_text, or WebVTT in WebM).
    public static let holdsSubtitles: Set<Kind> = [.mp4, .mov, .webm]

    static func ffmpegArguments(kind: Kind, audio: String, audioSeconds: Double, width: Int, height: Int, fps: Int,
                                transparent: Bool, nv12: Bool = false, subtitles: Subtitles? = nil, output: String) -> [String] {
        var arguments = ["-v", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", nv12 ? "nv12" : "rgba", "-s", "\(width)x\(height)",
                         "-framerate", "\(fps)", "-i", "pipe:0"]
        // Only the audio the frames show is read: `-shortest` alone still has ffmpeg encode far
        // ahead of the frames (the whole of a 17-minute 1 Hz file, resampled for AAC: 47 s for a
        // second of video).
        var audioInput = ["-t", String(format: "%.6f", audioSeconds), "-i", "file:" + audio]
        // Options before an -i are that input's: every input comes before the maps.
        if let subtitles, holdsSubtitles.contains(kind) {
            audioInput += ["-f", "srt", "-i", "file:" + subtitles.path, "-map", "0:v:0", "-map", "1:a:0?", "-map", "2:s:0",
                           "-c:s", kind == .webm ? "webvtt" : "mov_text"]
        } else {
            audioInput += ["-map", "0:v:0", "-map", "1:a:0?"]
        }
        switch kind {
        case .mp4:
            // veryfast at crf 20: flat colors and gradients keep their edges, and on two cores the
            // encoder keeps up with the drawing (medium took three times as long for a file 30 %
            // smaller). NV12 frames arrive top row first; RGBA ones are flipped.
            arguments += audioInput + (nv12 ? [] : ["-vf", "vflip"]) + ["-c:v", "libx264", "-preset", "veryfast",
                                       "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart"]
        case .mov:
            arguments += audioInput + ["-vf", "vflip", "-c:v", "prores_ks", "-profile:v", "4444",
                                       "-pix_fmt", transparent ? "yuva444p10le" : "yuv444p10le", "-c:a", "pcm_s16le"]
        case .webm:
            arguments += audioInput + ["-vf", "vflip", "-c:v", "libvpx-vp9", "-b:v", "0",
                                       "-crf", "32", "-row-mt", "1", "-deadline", "good", "-cpu-used", "4",
                                       "-pix_fmt", transparent ? "yuva420p" : "yuv420p", "-c:a", "libopus"]
        case .gif:
            arguments += ["-filter_complex", "[0:v]vflip,split[a][b];[a]palettegen=reserve_transparent=\(transparent ? 1 : 0)[p];[b][p]paletteuse"]
        case .pngFolder:
            break
        }
        // The audio track ends the video if it is a little longer than the frames. With subtitles
        // the length is given instead: -shortest would end everything at the last cue.
        if let subtitles, holdsSubtitles.contains(kind) {
            arguments += ["-t", String(format: "%.6f", subtitles.videoSeconds)]
        } else if kind != .gif && kind != .pngFolder {
            arguments += ["-shortest"]
        }
        return arguments + ["-f", muxer(for: kind), "file:" + output]
    }

    /// The container, named rather than guessed from the partial's name.
    private static func muxer(for kind: Kind) -> String {
        switch kind {
        case .mp4: "mp4"
        case .mov: "mov"
        case .webm: "webm"
        case .gif, .pngFolder: "gif"
        }
    }

    /// Writes one NV12 frame (top row first), which `fill` puts into the buffer it is given.
    func writeNV12(_ fill: (UnsafeMutableRawBufferPointer) -> Void) throws(CommandFailure) {
        guard let encoder else {
            if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: NV12Frame.byteCount(width: width, height: height)) }
            scratch.withUnsafeMutableBytes(fill)
            var failure: CommandFailure?
            scratch.withUnsafeBytes { bytes in
                do throws(CommandFailure) { try write(frame: bytes) } catch { failure = error }
            }
            if let failure { throw failure }
            return
        }
        frameNumber += 1
        encoder.writeFrame(fill)
        if let failure = encoder.failure { throw CommandFailure(message: "cannot write \(path.escapingControlCharacters): \(failure)") }
    }

    /// Hands decoded audio to an in-process encoder (the ffmpeg program reads the file itself).
    func write(audio samples: UnsafeBufferPointer<Float>) {
        encoder?.writeAudio(samples)
    }

    /// Writes one frame: NV12 top row first when `takesNV12`, else RGBA bottom row first.
    func write(frame pixels: UnsafeRawBufferPointer) throws(CommandFailure) {
        frameNumber += 1
        guard let ffmpeg else {
            let png: [UInt8]
            do {
                png = try PNGImage.encode(rgba: Array(pixels.bindMemory(to: UInt8.self)), width: width, height: height, flipVertically: true)
            } catch {
                throw CommandFailure(message: "cannot write \(path.escapingControlCharacters): \(error.description)")
            }
            try partial.writeFile(named: String(format: "frame-%06d.png", frameNumber), png)
            return
        }
        switch ffmpeg.write(pixels) {
        case .written:
            return
        case .interrupted:
            throw interrupted
        case .stalled:
            throw CommandFailure(message: "cannot write \(path.escapingControlCharacters): ffmpeg stopped reading frames")
        case .closed:
            if isInterrupted() { throw interrupted }
            _ = ffmpeg.finish(timeout: 2)
            let reason = ffmpeg.lastErrorLine
            throw CommandFailure(message: "cannot write \(path.escapingControlCharacters): ffmpeg stopped" + (reason.isEmpty ? "" : ": \(reason)"))
        }
    }

    private var interrupted: CommandFailure {
        CommandFailure(message: "interrupted; nothing was written to \(path.escapingControlCharacters)", status: 130)
    }

    /// Ends the stream, waits for ffmpeg, and moves the result to its name.
    func finish() throws(CommandFailure) {
        if let encoder {
            let failure = encoder.finish()
            if isInterrupted() {
                abandon()
                throw interrupted
            }
            if let failure {
                abandon()
                throw CommandFailure(message: "cannot write \(path.escapingControlCharacters): \(failure)")
            }
        }
        if let ffmpeg {
            let status = ffmpeg.finish()
            if isInterrupted() {
                abandon()
                throw interrupted
            }
            guard status == 0 else {
                abandon()
                let reason = ffmpeg.lastErrorLine
                throw CommandFailure(message: "cannot write \(path.escapingControlCharacters): ffmpeg: \(reason.isEmpty ? "status \(status)" : reason)")
            }
        }
        try partial.commit()
    }

    /// Stops ffmpeg and removes the partial output: nothing half-written is left.
    func abandon() {
        encoder?.abandon()
        ffmpeg?.stop()
        partial.discard()
    }
}
