import DecibarCore
import Foundation

/// Where `decibar render` writes, chosen by the output's extension: a video through the ffmpeg
/// program (frames on its standard input, the original audio muxed in), or a folder of PNGs.
/// Everything goes to a temporary name next to OUT, renamed only once complete.
final class RenderOutput {
    enum Kind: String, CaseIterable {
        case mp4, mov, webm, gif, pngFolder = "folder"
    }

    let path: String
    let kind: Kind
    let temporaryPath: String
    private var ffmpeg: FFmpegPipe?
    private var frameNumber = 0
    private let width: Int
    private let height: Int

    static let supported = ".mp4, .mov, .webm, .gif, or a folder (a path ending in /, or one that exists) for PNG frames"

    /// The kind of output a path asks for, or nil for an unknown extension.
    static func kind(of path: String) -> Kind? {
        var isDirectory: ObjCBool = false
        if path.hasSuffix("/") || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue) {
            return .pngFolder
        }
        return Kind(rawValue: (path as NSString).pathExtension.lowercased()).flatMap { $0 == .pngFolder ? nil : $0 }
    }

    init(path: String, audio: String, width: Int, height: Int, fps: Int, transparent: Bool) throws {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let kind = Self.kind(of: path) else {
            throw CommandFailure(message: "-o \(path): unknown kind of output; use \(Self.supported)", status: 2)
        }
        self.path = trimmed
        self.kind = kind
        self.width = width
        self.height = height
        let folder = (trimmed as NSString).deletingLastPathComponent
        let name = (trimmed as NSString).lastPathComponent
        let hidden = "." + ((name as NSString).deletingPathExtension) + ".partial-\(getpid())"
        temporaryPath = ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(
            kind == .pngFolder ? hidden : hidden + "." + kind.rawValue)
        if kind == .pngFolder {
            try FileManager.default.createDirectory(atPath: temporaryPath, withIntermediateDirectories: false)
            return
        }
        ffmpeg = try FFmpegPipe(arguments: Self.ffmpegArguments(kind: kind, audio: audio, width: width, height: height, fps: fps,
                                                                 transparent: transparent, output: temporaryPath),
                                purpose: "render to \(kind.rawValue)")
    }

    /// The ffmpeg command line for each kind of output. Frames arrive bottom row first (OpenGL's
    /// order), hence the vertical flip.
    static func ffmpegArguments(kind: Kind, audio: String, width: Int, height: Int, fps: Int, transparent: Bool,
                                output: String) -> [String] {
        var arguments = ["-v", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)",
                         "-framerate", "\(fps)", "-i", "pipe:0"]
        switch kind {
        case .mp4:
            arguments += ["-i", audio, "-map", "0:v:0", "-map", "1:a:0?", "-vf", "vflip", "-c:v", "libx264", "-preset", "medium",
                          "-crf", "18", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart"]
        case .mov:
            arguments += ["-i", audio, "-map", "0:v:0", "-map", "1:a:0?", "-vf", "vflip", "-c:v", "prores_ks", "-profile:v", "4444",
                          "-pix_fmt", transparent ? "yuva444p10le" : "yuv444p10le", "-c:a", "pcm_s16le"]
        case .webm:
            arguments += ["-i", audio, "-map", "0:v:0", "-map", "1:a:0?", "-vf", "vflip", "-c:v", "libvpx-vp9", "-b:v", "0",
                          "-crf", "32", "-row-mt", "1", "-deadline", "good", "-cpu-used", "4",
                          "-pix_fmt", transparent ? "yuva420p" : "yuv420p", "-c:a", "libopus"]
        case .gif:
            arguments += ["-filter_complex", "[0:v]vflip,split[a][b];[a]palettegen=reserve_transparent=\(transparent ? 1 : 0)[p];[b][p]paletteuse"]
        case .pngFolder:
            break
        }
        // The audio track ends the video if it is a little longer than the frames.
        if kind != .gif && kind != .pngFolder { arguments += ["-shortest"] }
        return arguments + [output]
    }

    /// Writes one frame (RGBA, bottom row first).
    func write(frame pixels: [UInt8]) throws {
        frameNumber += 1
        if kind == .pngFolder {
            let png = PNGEncoder.encode(rgba: pixels, width: width, height: height, flipVertically: true)
            let file = (temporaryPath as NSString).appendingPathComponent(String(format: "frame-%06d.png", frameNumber))
            guard FileManager.default.createFile(atPath: file, contents: Data(png)) else {
                throw CommandFailure(message: "cannot write \(file)")
            }
            return
        }
        guard let ffmpeg, ffmpeg.isRunning, ffmpeg.write(pixels) else {
            let reason = ffmpeg?.finish().lastLine ?? ""
            throw CommandFailure(message: "cannot write \(path): ffmpeg stopped" + (reason.isEmpty ? "" : ": \(reason)"))
        }
    }

    /// Ends the stream, waits for ffmpeg, and moves the result to its name.
    func finish() throws {
        if let ffmpeg {
            let result = ffmpeg.finish()
            guard result.status == 0 else {
                abandon()
                throw CommandFailure(message: "cannot write \(path): ffmpeg: \(result.lastLine.isEmpty ? "status \(result.status)" : result.lastLine)")
            }
        }
        if kind == .pngFolder, FileManager.default.fileExists(atPath: path) {
            // Replacing a folder of frames from an earlier render.
            try? FileManager.default.removeItem(atPath: path)
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            abandon()
            throw CommandFailure(message: "cannot write \(path): \(reason)")
        }
    }

    /// Stops ffmpeg and removes the temporary output: nothing half-written is left.
    func abandon() {
        ffmpeg?.stop()
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }
}
