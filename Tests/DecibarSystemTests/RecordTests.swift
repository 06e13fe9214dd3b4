import Foundation
import Testing

/// `live --record`: the window's frames at a steady rate with the audio shown, in sync.
@Suite("Recording the live window", .serialized, .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct RecordTests {
    @Test("a click played into the null sink shows in the recorded video within one frame of where it is in the recorded audio")
    func clickInSync() throws {
        let server = try PrivatePulseServer()
        let click = server.directory + "/click.wav"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                                              "aevalsrc=if(between(t\\,1.5\\,1.52)\\,0.9*sin(2*PI*1000*t)\\,0):s=48000:d=3.5",
                                              "-ac", "2", click])
        #expect(made.status == 0, "\(made.error)")
        let video = server.directory + "/recording.mp4"
        let live = try RunningCommand(["live", "--size", "320x180", "--bars", "8", "--exit-after", "5", "--record", video],
                                      environment: server.environment)
        // Play once the window is up and listening, so the click lands in the recording.
        #expect(TestRig.wait(timeout: 20) { live.standardError.contains("listening to") }, "\(live.standardError)")
        let player = try server.play(click)
        defer { player.kill() }
        #expect(live.waitForExit(timeout: 30) == 0, "\(live.standardError)")
        #expect(live.standardError.contains("recorded"))

        // The recording: about 5 s at 30 fps, with audio.
        let probe = try TestRig.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_type,nb_read_frames",
                                                "-of", "csv=p=0", video])
        let streams = String(decoding: probe.output, as: UTF8.self)
        #expect(streams.contains("audio"), "\(streams)")

        // Where the click is in the recorded audio, on the file's own clock: the audio starts when it
        // was first heard, often after the first frame, and a decoder pads that start only when told
        // to (first_pts=0). Decoded from its first sample instead, the click read up to 30 ms early
        // whenever the first sound came later than the AAC encoder's 21 ms of priming: the test then
        // failed by "45 ms" about one run in three.
        let audio = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", video, "-map", "0:a", "-af", "aresample=async=1:first_pts=0",
                                               "-f", "f32le", "-ac", "1", "-ar", "48000", "-"])
        let samples = audio.output.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let clickSample = try #require(samples.firstIndex { abs($0) > 0.1 }, "no click in the recorded audio")
        let audioTime = Double(clickSample) / 48000

        // ...and the first frame whose bars rise above the rest.
        let frames = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", video, "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let size = 320 * 180
        let frameCount = frames.output.count / size
        #expect(abs(frameCount - 150) <= 3, "\(frameCount) frames for 5 s at 30 fps")
        let brightness: [Double] = (0 ..< frameCount).map { index in
            let start = index * size + 40 * 320
            return frames.output[start ..< start + 60 * 320].reduce(0.0) { $0 + Double($1) } / Double(60 * 320)
        }
        // The bars before the click sit still: any change beyond that frame-to-frame noise is the click.
        let quiet = brightness[5 ..< min(30, frameCount)].max() ?? 0
        let reacting = try #require((5 ..< frameCount).first { brightness[$0] > quiet + 0.1 }, "the bars never moved")
        let videoTime = Double(reacting) / 30
        // Within one frame, and one buffer: a slot of the recording holds the first frame whose
        // audio reaches its time, so it can show up to one display interval ahead (early side), and
        // the analysis reads whole 256-frame buffers, so a click heard less than one buffer before a
        // slot's time is first drawn in the next slot (late side). Read as "within one frame" alone,
        // a click landing in a slot's last 5.3 ms failed by 0.2-1.6 ms.
        let buffer = 256.0 / 48000
        print("record: video \(videoTime) s, audio \(audioTime) s")
        #expect(videoTime >= audioTime - 1.0 / 30, "shown a frame before it was heard: video \(videoTime) s, audio \(audioTime) s")
        #expect(videoTime <= audioTime + 1.0 / 30 + buffer, "video \(videoTime) s, audio \(audioTime) s")
    }
}
