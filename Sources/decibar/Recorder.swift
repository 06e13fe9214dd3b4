import DecibarCore
import DecibarRender
import Foundation

/// `--record OUT.mp4`: what the window shows, at a steady frame rate, with the audio being shown.
///
/// Video: slot n of the recording is the first frame the window drew whose audio reaches start +
/// n/fps (so it shows everything heard by that moment, whenever it was drawn); a stutter repeats
/// a frame and a fast display drops some. Frames go to ffmpeg (H.264, ultrafast) as they come. Audio: every buffer the display releases, in the order heard, into a
/// raw file, with silence filled in where nothing was heard. At the end the two are muxed with
/// the audio placed by the time its first sample was heard, so sound and picture line up, and
/// the result is renamed to OUT.
final class Recorder {
    let path: String
    let fps: Int
    let width: Int
    let height: Int
    private let video: FFmpegPipe
    private let videoPath: String
    private let audioPath: String
    private let audioFile: FileHandle
    private var pixels: [UInt8]
    private var haveFrame = false
    /// When the newest audio shown so far ends (its last sample heard).
    private var latestHeard = -Double.infinity
    private var start: Double?
    private var slotsWritten = 0
    // Audio: its format, the heard time of its first sample, and where the next one should fall.
    private var sampleRate = 0
    private var audioStart: Double?
    private var framesWritten: Int64 = 0
    /// The stream position that would follow the last buffer: a buffer that starts there is
    /// contiguous and goes straight on, whatever jitter its time stamp has.
    private var nextStartFrame: Int64?
    private var audioBytes: [UInt8] = []

    static let channels = 2

    init(path: String, fps: Int, width: Int, height: Int) throws {
        self.path = path
        self.fps = fps
        self.width = width - width % 2
        self.height = height - height % 2
        pixels = Array(repeating: 0, count: self.width * self.height * 4)
        let folder = (path as NSString).deletingLastPathComponent
        let stem = "." + ((path as NSString).lastPathComponent as NSString).deletingPathExtension + ".partial-\(getpid())"
        let base = ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(stem)
        videoPath = base + ".video.mkv"
        audioPath = base + ".audio.raw"
        guard FileManager.default.createFile(atPath: audioPath, contents: nil), let audioFile = FileHandle(forWritingAtPath: audioPath) else {
            throw CommandFailure(message: "cannot write \(audioPath)")
        }
        self.audioFile = audioFile
        video = try FFmpegPipe(arguments: ["-v", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "rgba",
                                           "-s", "\(self.width)x\(self.height)", "-framerate", "\(fps)", "-i", "pipe:0",
                                           "-vf", "vflip", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "20",
                                           "-pix_fmt", "yuv420p", videoPath],
                               purpose: "--record")
    }

    /// Call after drawing a frame, before it is shown; `now` is when the frame loop started it.
    func frameDrawn(in window: Window, at now: Double) {
        let start = self.start ?? now
        self.start = start
        // The moment this frame's audio reaches; the clock when no audio flows (a pause, silence
        // from a server that sends nothing).
        let reaches = now - latestHeard < 0.2 ? latestHeard : now
        // Every slot that begins by then and has no frame yet gets this one.
        let due = Int(((reaches - start) * Double(fps)).rounded(.down)) + 1
        guard slotsWritten < due else { return }
        window.readPixels(into: &pixels, width: width, height: height)
        haveFrame = true
        while slotsWritten < due { writeSlot() }
    }

    private func writeSlot() {
        _ = video.write(pixels)
        slotsWritten += 1
    }

    /// A buffer the display released, its last sample heard at `heardAt`.
    func audio(_ buffer: AudioBuffer, heardAt end: Double) {
        if sampleRate == 0 { sampleRate = buffer.sampleRate }
        guard buffer.sampleRate == sampleRate else { return }
        let heardAt = end - buffer.duration
        latestHeard = max(latestHeard, end)
        let begin = audioStart ?? heardAt
        audioStart = begin
        // A jump in the stream (a seek, a pause, the server away): place it by the time it was
        // heard, keeping time with silence. Contiguous audio just follows on.
        let expected = Int64(((heardAt - begin) * Double(sampleRate)).rounded())
        let gap = buffer.startFrame == nextStartFrame ? 0 : expected - framesWritten
        nextStartFrame = buffer.startFrame + Int64(buffer.frameCount)
        audioBytes.removeAll(keepingCapacity: true)
        if gap > 0 {
            audioBytes.append(contentsOf: repeatElement(0, count: Int(gap) * Self.channels * 4))
            framesWritten += gap
        }
        buffer.withSamples { samples in
            let sourceChannels = buffer.channelCount
            for frame in 0 ..< buffer.frameCount {
                for channel in 0 ..< Self.channels {
                    let sample = samples[frame * sourceChannels + min(channel, sourceChannels - 1)]
                    withUnsafeBytes(of: sample.bitPattern.littleEndian) { audioBytes.append(contentsOf: $0) }
                }
            }
        }
        framesWritten += Int64(buffer.frameCount)
        audioFile.write(Data(audioBytes))
    }

    /// Fills the last slots up to `end`, closes both streams and muxes them into OUT.
    func finish(at end: Double) throws {
        if let start, haveFrame {
            let due = Int(((end - start) * Double(fps)).rounded(.down)) + 1
            while slotsWritten < due { writeSlot() }
        }
        try? audioFile.close()
        let encoded = video.finish()
        defer {
            try? FileManager.default.removeItem(atPath: videoPath)
            try? FileManager.default.removeItem(atPath: audioPath)
        }
        guard encoded.status == 0, slotsWritten > 0 else {
            throw CommandFailure(message: "cannot record \(path): \(encoded.lastLine.isEmpty ? "nothing was recorded" : encoded.lastLine)")
        }
        let temporary = videoPath.replacingOccurrences(of: ".video.mkv", with: "." + (path as NSString).pathExtension)
        var arguments = ["-v", "error", "-nostdin", "-y", "-i", videoPath]
        if let audioStart, let start, framesWritten > 0 {
            // Audio heard at audioStart belongs at that moment of the video.
            let offset = audioStart - start
            arguments += offset >= 0 ? ["-itsoffset", String(format: "%.6f", offset)] : ["-ss", String(format: "%.6f", -offset)]
            arguments += ["-f", "f32le", "-ar", "\(sampleRate)", "-ac", "\(Self.channels)", "-i", audioPath,
                          "-map", "0:v:0", "-map", "1:a:0", "-c:a", "aac", "-b:a", "192k"]
        }
        arguments += ["-c:v", "copy", "-movflags", "+faststart", temporary]
        let mux = try FFmpegPipe.run("ffmpeg", arguments)
        guard mux.status == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CommandFailure(message: "cannot record \(path): ffmpeg: \(mux.lastLine)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw CommandFailure(message: "cannot record \(path): \(reason)")
        }
        writeError("recorded \(slotsWritten) frames at \(fps) fps to \(path)")
    }

    /// Stops without keeping anything.
    func abandon() {
        try? audioFile.close()
        video.stop()
        try? FileManager.default.removeItem(atPath: videoPath)
        try? FileManager.default.removeItem(atPath: audioPath)
    }
}
