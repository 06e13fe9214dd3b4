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
    private let video: ChildProcess
    private let videoPartial: PartialOutput
    private let audioPartial: PartialOutput
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
    /// Why recording cannot go on (a full disk, ffmpeg gone); the frame loop ends with it.
    private(set) var failure: CommandFailure?

    static let channels = 2

    /// - Parameter inputs: files being played, which the recording must never replace.
    init(path: String, fps: Int, width: Int, height: Int, protecting inputs: [String] = []) throws(CommandFailure) {
        // Before anything is created, so a missing ffmpeg leaves nothing behind.
        guard ChildProcess.findProgram("ffmpeg") != nil else {
            throw CommandFailure(message: "--record needs the ffmpeg program (apt-get install ffmpeg)")
        }
        PartialOutput.removeStale(for: path)
        self.path = path
        self.fps = fps
        self.width = width - width % 2
        self.height = height - height % 2
        pixels = Array(repeating: 0, count: self.width * self.height * 4)
        videoPartial = try PartialOutput(destination: path, role: "video", fileExtension: "mkv", keepsOpen: false, protecting: inputs)
        audioPartial = try PartialOutput(destination: path, role: "audio", fileExtension: "raw", protecting: inputs)
        // A stalled ffmpeg must not freeze the window: give up on it after a few seconds.
        video = try ChildProcess("ffmpeg", arguments: ["-v", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "rgba",
                                                       "-s", "\(self.width)x\(self.height)", "-framerate", "\(fps)", "-i", "pipe:0",
                                                       "-vf", "vflip", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "20",
                                                       "-pix_fmt", "yuv420p", "-f", "matroska", "file:" + videoPartial.path],
                                 feedsInput: true, writeTimeout: 5, missing: "--record needs the ffmpeg program (apt-get install ffmpeg)")
    }

    /// Call after drawing a frame, before it is shown; `now` is when the frame loop started it.
    /// Throws once recording has failed.
    func frameDrawn(in window: Window, at now: Double) throws(CommandFailure) {
        if let failure { throw failure }
        let start = self.start ?? now
        self.start = start
        // The moment this frame's audio reaches; the clock when no audio flows (a pause, silence
        // from a server that sends nothing).
        let reaches = now - latestHeard < 0.2 ? latestHeard : now
        // Every slot that begins by then and has no frame yet gets this one.
        let due = Int(saturating: ((reaches - start) * Double(fps)).rounded(.down)) + 1
        guard slotsWritten < due else { return }
        window.readPixels(into: &pixels, width: width, height: height)
        haveFrame = true
        while slotsWritten < due { try writeSlot() }
    }

    private func writeSlot() throws(CommandFailure) {
        switch video.write(pixels) {
        case .written:
            slotsWritten += 1
        case .closed, .interrupted:
            _ = video.finish(timeout: 2)
            let reason = video.lastErrorLine
            throw fail("ffmpeg stopped" + (reason.isEmpty ? "" : ": \(reason)"))
        case .stalled:
            throw fail("ffmpeg stopped taking frames")
        }
    }

    private func fail(_ reason: String) -> CommandFailure {
        let failure = self.failure ?? CommandFailure(message: "cannot record \(path.escapingControlCharacters): \(reason)")
        self.failure = failure
        return failure
    }

    /// A buffer the display released, its last sample heard at `heardAt`.
    func audio(_ buffer: AudioBuffer, heardAt end: Double) {
        guard failure == nil else { return }
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
        do {
            try audioPartial.write(audioBytes)
        } catch {
            // The message ends with the system's reason ("No space left on device").
            _ = fail("cannot write the audio: " + (error.message.split(separator: ": ").last.map(String.init) ?? error.message))
        }
    }

    /// Fills the last slots up to `end`, closes both streams and muxes them into OUT.
    func finish(at end: Double) throws(CommandFailure) {
        if let failure {
            abandon()
            throw failure
        }
        if let start, haveFrame {
            let due = Int(saturating: ((end - start) * Double(fps)).rounded(.down)) + 1
            while slotsWritten < due {
                do {
                    try writeSlot()
                } catch {
                    abandon()
                    throw error
                }
            }
        }
        let status = video.finish()
        defer {
            videoPartial.discard()
            audioPartial.discard()
        }
        guard status == 0, slotsWritten > 0 else {
            let reason = video.lastErrorLine
            throw CommandFailure(message: "cannot record \(path.escapingControlCharacters): \(slotsWritten == 0 ? "nothing was recorded" : reason.isEmpty ? "ffmpeg failed" : reason)")
        }
        let muxed = try PartialOutput(destination: path, fileExtension: OutputPath.fileExtension(of: path), keepsOpen: false)
        var arguments = ["-v", "error", "-nostdin", "-y", "-i", "file:" + videoPartial.path]
        if let audioStart, let start, framesWritten > 0 {
            // Audio heard at audioStart belongs at that moment of the video.
            let offset = audioStart - start
            arguments += offset >= 0 ? ["-itsoffset", String(format: "%.6f", offset)] : ["-ss", String(format: "%.6f", -offset)]
            arguments += ["-f", "f32le", "-ar", "\(sampleRate)", "-ac", "\(Self.channels)", "-i", "file:" + audioPartial.path,
                          "-map", "0:v:0", "-map", "1:a:0", "-c:a", "aac", "-b:a", "192k"]
        }
        let container = OutputPath.fileExtension(of: path) == "mkv" ? "matroska" : OutputPath.fileExtension(of: path)
        arguments += ["-c:v", "copy", "-movflags", "+faststart", "-f", container, "file:" + muxed.path]
        let mux = try ChildProcess.run("ffmpeg", arguments, missing: "--record needs the ffmpeg program (apt-get install ffmpeg)")
        guard mux.status == 0 else {
            muxed.discard()
            throw CommandFailure(message: "cannot record \(path.escapingControlCharacters): ffmpeg: \(mux.lastLine)")
        }
        try muxed.commit()
        writeError("recorded \(slotsWritten) frames at \(fps) fps to \(path)")
    }

    /// Stops without keeping anything.
    func abandon() {
        video.stop()
        videoPartial.discard()
        audioPartial.discard()
    }
}
