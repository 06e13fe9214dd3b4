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
    /// Where frames and audio go (slots, silence in gaps, the offset between them).
    private var timeline: RecordingTimeline
    /// Slots written to ffmpeg (the timeline counts those due).
    private var slotsWritten = 0
    /// The audio's rate, from its first buffer.
    private var sampleRate = 0
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
        timeline = RecordingTimeline(fps: fps)
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
    func frameDrawn(in surface: any Surface, at now: Double) throws(CommandFailure) {
        if let failure { throw failure }
        let due = timeline.slotsForFrame(drawnAt: now)
        guard due > 0 else { return }
        surface.readPixels(into: &pixels, width: width, height: height)
        haveFrame = true
        for _ in 0 ..< due { try writeSlot() }
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
        let gap = timeline.silenceBefore(startFrame: buffer.startFrame, frameCount: buffer.frameCount, sampleRate: sampleRate, heardAt: end)
        audioBytes.removeAll(keepingCapacity: true)
        if gap > 0 { audioBytes.append(contentsOf: repeatElement(0, count: Int(gap) * Self.channels * 4)) }
        buffer.withSamples { samples in
            let sourceChannels = buffer.channelCount
            for frame in 0 ..< buffer.frameCount {
                for channel in 0 ..< Self.channels {
                    let sample = samples[frame * sourceChannels + min(channel, sourceChannels - 1)]
                    withUnsafeBytes(of: sample.bitPattern.littleEndian) { audioBytes.append(contentsOf: $0) }
                }
            }
        }
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
        if haveFrame {
            for _ in 0 ..< timeline.slotsToFinish(at: end) {
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
        if let offset = timeline.audioOffset, timeline.audioFramesPlaced > 0 {
            // Audio heard at audioStart belongs at that moment of the video.
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
