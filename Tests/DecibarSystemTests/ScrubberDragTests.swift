import DecibarAudio
import DecibarCore
import Foundation
import Testing

/// Drags on the player's scrubber with real X input events (xdotool) and checks, in the audio
/// recorded from the null sink's monitor, where playback went.
@Suite("Scrubber drag under Xvfb", .serialized, .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct ScrubberDragTests {
    let width = 800
    let height = 450

    func offset(of needle: ArraySlice<Float>, in haystack: [Float], from start: Int = 0) -> Int? {
        var index = start - start % 2
        while index + needle.count <= haystack.count {
            if haystack[index] == needle.first!, zip(haystack[index ..< index + needle.count], needle).allSatisfy({ abs($0 - $1) < 1e-6 }) {
                return index
            }
            index += 2
        }
        return nil
    }

    @Test("dropping a drag seeks once, exactly to the time under the pointer; past the window's edge it pins to the start")
    func drag() throws {
        let server = try PrivatePulseServer()
        let file = server.directory + "/sweep.flac"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                              "aevalsrc=0.5*sin(2*PI*(200+30*t)*t)+0.01|0.4*sin(2*PI*(500+10*t)*t)+0.01:s=48000:d=20",
                                              file])
        #expect(made.status == 0)
        let decoder = try AudioFileDecoder(path: file)
        var decoded: [Float] = []
        while try decoder.read({ decoded.append(contentsOf: $0) }) {}

        let recording = server.directory + "/recorded.raw"
        let recorder = try server.record(to: recording)
        defer { recorder.kill() }
        let screen = try PrivateDisplay()
        let player = try RunningCommand(["play", file, "--size", "\(width)x\(height)"],
                                        environment: server.environment.merging(["DISPLAY": screen.display]) { $1 })
        // An X server of this test's own: other tests' windows cannot catch its input events.
        let id = try screen.window(of: player.process.processIdentifier)
        func input(_ arguments: [String]) throws { try screen.xdotool(arguments) }
        // Playing, with the overview analyzed (the drag maps pixels to times through it).
        #expect(TestRig.wait(timeout: 20) { player.standardError.contains("playing ") })
        usleep(1_200_000)

        let layout = PlayLayout(width: width, height: height)
        let geometry = layout.scrubberGeometry(duration: 20)
        let y = layout.scrubberTop + layout.scrubberHeight / 2
        let from = layout.scrubberLeft + layout.scrubberWidth / 5
        let to = layout.scrubberLeft + layout.scrubberWidth * 7 / 10
        // Press, move in steps (the playhead follows), release: one seek, to `to`.
        try input(["mousemove", "--window", id, "\(from)", "\(y)", "mousedown", "1"])
        for step in 1 ... 5 {
            try input(["mousemove", "--window", id, "\(from + (to - from) * step / 5)", "\(y)"])
            usleep(30_000)
        }
        try input(["mouseup", "1"])
        let dropFrame = Int((geometry.time(forX: Double(to)) * 48000).rounded())
        usleep(1_500_000)

        // A second drag leaves the window on the left and is released out there: pinned to 0:00.
        try input(["mousemove", "--window", id, "\(to)", "\(y)", "mousedown", "1"])
        try input(["mousemove", "--window", id, "--", "-150", "\(y)"])
        usleep(50_000)
        try input(["mouseup", "1"])
        usleep(1_000_000)

        // Quit as a user would.
        try input(["key", "--window", id, "q"])
        #expect(player.waitForExit(timeout: 15) == 0, "\(player.standardError)")
        recorder.kill()
        let recorded = try Data(contentsOf: URL(fileURLWithPath: recording)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }

        // The first drop: the audio from exactly `dropFrame` is in the recording...
        let landing = offset(of: decoded[dropFrame * 2 ..< dropFrame * 2 + 960], in: recorded)
        #expect(landing != nil, "no audio from the drop point \(Double(dropFrame) / 48000) s")
        // ...and it starts there: the 5 ms before it in the recording are not the 5 ms before the drop point
        // (that would mean playback merely passed by), so this is where a seek landed.
        if let landing {
            let before = Array(recorded[max(0, landing - 480) ..< landing])
            #expect(before != Array(decoded[dropFrame * 2 - 480 ..< dropFrame * 2]))
            // The second drop, outside the window on the left: the start of the file plays again afterwards.
            let again = offset(of: decoded[0 ..< 960], in: recorded, from: landing)
            #expect(again != nil, "dragging past the left edge did not seek to the start")
        }
        #expect(player.standardError.contains("playing \(file)"))
    }
}
