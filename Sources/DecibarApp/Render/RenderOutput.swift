import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// Where `decibar render` writes, chosen by the output's extension. An MP4 is encoded in this
/// process (`MP4EncoderSink`: H.264 from the NV12 frames, AAC from the samples already decoded);
/// the other kinds, and an MP4 with a subtitle track, go through the ffmpeg program (`FFmpegSink`:
/// frames on its standard input, the original audio muxed in); a folder gets PNGs
/// (`PNGFolderSink`). Everything goes to a partial next to OUT (see `PartialOutput`), renamed only
/// once complete.
public enum RenderOutput {
    public enum Kind: String, CaseIterable, Sendable {
        case mp4, mov, webm, gif, pngFolder = "folder"
    }

    public static let supported = ".mp4, .mov, .webm, .gif, or a folder (a path ending in /, or an empty folder) for PNG frames"

    /// The kind of output a path asks for, or nil for an unknown extension.
    public static func kind(of path: String) -> Kind? {
        var info = stat()
        if path.hasSuffix("/") || (stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR) {
            return .pngFolder
        }
        return Kind(rawValue: OutputPath.fileExtension(of: path)).flatMap { $0 == .pngFolder ? nil : $0 }
    }

    /// Opens the sink for `path`'s kind, its partial made.
    /// - Parameter audioSeconds: how much of `audio` to read: at least what the frames show (more is cut).
    /// - Parameter nv12: whether the frames can be read as NV12 (an even width and height).
    /// - Parameter subtitles: a SubRip file muxed as a soft subtitle track (`--captions-track`), and
    ///   the video's length in seconds.
    /// - Parameter decoded: the rate and channel count of the samples `write(audio:)` will be given,
    ///   and how many frames of them the video lasts; an MP4 is then encoded in this process.
    static func open(path: String, audio: String, audioSeconds: Double, width: Int, height: Int, fps: Int, transparent: Bool,
                     nv12: Bool, subtitles: Subtitles? = nil, decoded: DecodedAudio? = nil,
                     isInterrupted: @escaping () -> Bool) throws(CommandFailure) -> any FrameSink {
        guard let kind = Self.kind(of: path) else {
            throw CommandFailure(message: "-o \(path): unknown kind of output; use \(Self.supported)", status: 2)
        }
        let inProcess = kind == .mp4 && nv12 && subtitles == nil && decoded != nil
        if kind != .pngFolder, !inProcess, ChildProcess.findProgram("ffmpeg") == nil {
            throw CommandFailure(message: "render to \(kind.rawValue) needs the ffmpeg program (apt-get install ffmpeg)")
        }
        PartialOutput.removeStale(for: path)
        let partial = try PartialOutput(destination: path, kind: kind == .pngFolder ? .folder : .file,
                                        fileExtension: kind == .pngFolder ? "" : kind.rawValue, keepsOpen: false, protecting: [audio])
        if kind == .pngFolder { return PNGFolderSink(partial: partial, width: width, height: height) }
        if inProcess, let decoded {
            return try MP4EncoderSink(partial: partial, width: width, height: height, fps: fps, audio: decoded, isInterrupted: isInterrupted)
        }
        let takesNV12 = nv12 && kind == .mp4
        return try FFmpegSink(partial: partial,
                              arguments: ffmpegArguments(kind: kind, audio: audio, audioSeconds: audioSeconds, width: width, height: height,
                                                         fps: fps, transparent: transparent, nv12: takesNV12, subtitles: subtitles,
                                                         output: partial.path),
                              kind: kind, takesNV12: takesNV12, isInterrupted: isInterrupted)
    }

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

    /// The ffmpeg command line for each kind of output. Frames arrive bottom row first (OpenGL's
    /// order), hence the vertical flip. Paths go through ffmpeg's `file:` protocol, so a name is
    /// never read as another protocol (`concat:`, `http:`) or an option.
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
}
