import DecibarApp
import DecibarCore
import Foundation
import Testing

/// The daemon's scrubber zoomed with `ctl zoom`, the wheel (real X events, xdotool) and the
/// minimap, under Xvfb: what `player.view` says, and what the screenshot shows against a min/max
/// of the file's samples worked out here.
@Suite("Scrubber zoom under Xvfb", .serialized, .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct ScrubberZoomTests {
    let width = 800
    let height = 450

    /// The file: 120 s of 440 Hz whose loudness swells and falls twice a second, too fast for a
    /// whole-track scrubber (0.6 s a column) to show, plain at zoom 8 (75 ms a column).
    static func sample(_ frame: Int) -> Float {
        let time = Double(frame) / 48000
        return Float((0.1 + 0.8 * abs(sin(2 * Double.pi * time))) * sin(2 * Double.pi * 440 * time))
    }

    func view(_ rig: DaemonRig) throws -> (start: Double, end: Double) {
        guard case .object(let view)? = try rig.player("view"), let start = view["start"]?.number, let end = view["end"]?.number else {
            throw RigError("no player.view in the status")
        }
        return (start, end)
    }

    @Test("ctl zoom 8 at 60 s of 120 s shows 52.5-67.5 s, drawn from the overview as the file's own min/max; the wheel zooms around the pointer; the minimap pans")
    func zoom() throws {
        let screen = try PrivateDisplay()
        let rig = try DaemonRig(arguments: ["--size", "\(width)x\(height)"], environment: ["DISPLAY": screen.display])
        let file = rig.server.directory + "/swell.wav"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                              "aevalsrc=(0.1+0.8*abs(sin(2*PI*t)))*sin(2*PI*440*t):s=48000:d=120", "-c:a", "pcm_f32le", file])
        #expect(made.status == 0, "\(made.error)")
        #expect(try rig.ctl("show").status == 0)
        #expect(try rig.ctl("open", file).status == 0)
        // The overview done (the exact length known), then paused at 60 s.
        #expect(TestRig.wait(timeout: 20) { (try? rig.player("duration"))?.number == 120 })
        #expect(try rig.ctl("pause").status == 0)
        #expect(try rig.ctl("seek", "60").status == 0)
        #expect(try view(rig) == (0, 120))
        #expect(try rig.ctl("zoom", "8").status == 0)
        let zoomed = try view(rig)
        #expect(abs(zoomed.start - 52.5) <= 0.5 && abs(zoomed.end - 67.5) <= 0.5, "\(zoomed)")
        Thread.sleep(forTimeInterval: 0.3)

        // The screenshot's columns against the samples' own min/max over each column's time.
        let shot = rig.server.directory + "/zoomed.png"
        #expect(try rig.ctl("screenshot", shot).status == 0)
        let frame = try RenderTests.Frame(png: shot, width: width, height: height)
        let layout = PlayLayout(width: width, height: height, showsMinimap: true)
        let geometry = ScrubberGeometry(left: Double(layout.scrubberLeft), width: Double(layout.scrubberWidth), zoom: {
            var zoom = ScrubberZoom(duration: 120)
            zoom.zoom(to: 8, around: 60, width: Double(layout.scrubberWidth))
            return zoom
        }())
        let settings = ScrubberSettings()
        let count = geometry.columnCount(barWidth: settings.barWidth, spacing: settings.barSpacing)
        let largest = (0 ..< 48000).map { abs(Self.sample($0)) }.max() ?? 1
        let half = layout.scrubberHeight / 2
        var misses: [String] = [], expectedExtents: [Int] = []
        for column in 0 ..< count {
            let from = Int((geometry.start + Double(column) * geometry.span / Double(count)) * 48000)
            let to = Int((geometry.start + Double(column + 1) * geometry.span / Double(count)) * 48000)
            let magnitude = (from ..< to).map { abs(Self.sample($0)) }.max() ?? 0
            let expected = max(1, Int((Double(magnitude / largest) * Double(half)).rounded()))
            expectedExtents.append(expected)
            let x = layout.scrubberLeft + column * (settings.barWidth + settings.barSpacing) + settings.barWidth / 2
            // Painted rows above the middle (the column is mirrored below it).
            let center = layout.scrubberTop + half
            var extent = 0
            while extent < half && !frame.isBackground(x: x, y: center - extent - 1, theme: RenderTests.theme) { extent += 1 }
            // The overview's pairs are 256 samples (5 ms) against columns of 75 ms: a few pixels at the steep edges.
            if abs(extent - expected) > max(3, expected / 8) { misses.append("column \(column): \(extent) px, expected \(expected)") }
        }
        // The playhead's line covers a column or two in the middle.
        #expect(misses.count <= 2, "\(misses)")
        // The swells show (at zoom 1 every column holds a whole swell and stands near the top).
        #expect((expectedExtents.min() ?? 0) < half * 3 / 5 && (expectedExtents.max() ?? 0) > half * 9 / 10, "\(expectedExtents)")

        // The wheel, a quarter of the way across: two steps up halve the span; the time under the pointer stays there.
        let id = try screen.window(of: try #require(rig.daemon).process.processIdentifier)
        func input(_ arguments: [String]) throws { try screen.xdotool(arguments) }
        let pointerX = layout.scrubberLeft + layout.scrubberWidth / 4
        let underPointer = geometry.time(forX: Double(pointerX))
        try input(["mousemove", "--window", id, "\(pointerX)", "\(layout.scrubberTop + half)", "click", "4", "click", "4"])
        #expect(TestRig.wait(timeout: 5) { ((try? view(rig)).map { $0.end - $0.start } ?? 15) < 10 })
        let wheeled = try view(rig)
        let fraction = (underPointer - wheeled.start) / (wheeled.end - wheeled.start)
        // (7.6 s rather than 7.5: 760 pixels at 10 ms a pixel is as far as it goes.)
        let finest = 120 / ScrubberZoom(duration: 120).maximumFactor(width: Double(layout.scrubberWidth))
        #expect(abs(wheeled.end - wheeled.start - max(7.5, finest)) < 0.01
                && abs(fraction - Double(pointerX - layout.scrubberLeft) / Double(layout.scrubberWidth)) < 0.01,
                "\(wheeled), the pointer's \(underPointer) s at \(fraction)")

        // A press on the minimap at 90 s centers the view there.
        let mapX = Int(layout.scrubberGeometry(duration: 120).x(forTime: 90))
        try input(["mousemove", "--window", id, "\(mapX)", "\(layout.minimapTop + layout.minimapHeight / 2)", "click", "1"])
        #expect(TestRig.wait(timeout: 5) { ((try? view(rig))?.start ?? 0) > 80 })
        let panned = try view(rig)
        #expect(abs((panned.start + panned.end) / 2 - 90) < 0.3 && abs(panned.end - panned.start - max(7.5, finest)) < 0.01, "\(panned)")
        // Two steps down: back out to 15 s around the same place; the playhead stayed at 60 s (paused).
        try input(["mousemove", "--window", id, "\(layout.scrubberLeft + layout.scrubberWidth / 2)", "\(layout.scrubberTop + half)",
                   "click", "5", "click", "5"])
        #expect(TestRig.wait(timeout: 5) { ((try? view(rig)).map { $0.end - $0.start } ?? 0) > 14 })
        #expect(abs(((try rig.player("position"))?.number ?? 0) - 60) < 0.1)
    }

    @Test("a low-rate file zoomed in with thin bars: the columns come from a finer overview of the stretch shown, decoded on demand, and match the file's own min/max")
    func finerOverview() throws {
        let screen = try PrivateDisplay()
        let rig = try DaemonRig(config: "[player]\nscrubber_bar_width = 1\nscrubber_bar_spacing = 0\n",
                                arguments: ["--size", "\(width)x\(height)"], environment: ["DISPLAY": screen.display])
        // 8 kHz: a stored pair is 256 samples, 32 ms. The loudness swells every 80 ms: 10 ms columns show it, 32 ms blur it.
        let file = rig.server.directory + "/low.wav"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                              "aevalsrc=(0.5+0.4*sin(2*PI*12.5*t))*sin(2*PI*440*t):s=8000:d=60", "-c:a", "pcm_f32le", file])
        #expect(made.status == 0, "\(made.error)")
        func sample(_ frame: Int) -> Float {
            let time = Double(frame) / 8000
            return Float((0.5 + 0.4 * sin(2 * Double.pi * 12.5 * time)) * sin(2 * Double.pi * 440 * time))
        }
        #expect(try rig.ctl("show").status == 0)
        #expect(try rig.ctl("open", file).status == 0)
        #expect(TestRig.wait(timeout: 20) { (try? rig.player("duration"))?.number == 60 })
        #expect(try rig.ctl("pause").status == 0)
        #expect(try rig.ctl("seek", "30").status == 0)
        #expect(try rig.ctl("zoom", "1000").status == 0)
        let shown = try view(rig)
        let layout = PlayLayout(width: width, height: height, showsMinimap: true)
        // As far as a zoom goes: 10 ms a pixel, a pixel a column.
        #expect(abs((shown.end - shown.start) / Double(layout.scrubberWidth) - 0.01) < 1e-6, "\(shown)")
        // The playhead past the stretch (paused, the view stays): every column in the played color.
        #expect(try rig.ctl("seek", "\(shown.end + 1)").status == 0)
        #expect(try view(rig) == shown)
        Thread.sleep(forTimeInterval: 0.5)
        let shot = rig.server.directory + "/finer.png"
        #expect(try rig.ctl("screenshot", shot).status == 0)
        let frame = try RenderTests.Frame(png: shot, width: width, height: height)
        let half = layout.scrubberHeight / 2
        let center = layout.scrubberTop + half
        let largest = (0 ..< 8000).map { abs(sample($0)) }.max() ?? 1
        var misses: [String] = [], storedMisses = 0, extents: [Int] = []
        for column in 0 ..< layout.scrubberWidth {
            let from = Int(((shown.start + Double(column) * 0.01) * 8000).rounded())
            let magnitude = (from ..< from + 80).map { abs(sample($0)) }.max() ?? 0
            let expected = max(1, Int((Double(magnitude / largest) * Double(half)).rounded()))
            extents.append(expected)
            let x = layout.scrubberLeft + column
            var extent = 0
            while extent < half && !frame.isBackground(x: x, y: center - extent - 1, theme: RenderTests.theme) { extent += 1 }
            if abs(extent - expected) > max(3, expected / 6) { misses.append("column \(column): \(extent) px, expected \(expected)") }
            // What the stored overview would show: the 32 ms pair under the column.
            let pair = from / 256 * 256
            let stored = max(1, Int((Double(((pair ..< pair + 256).map { abs(sample($0)) }.max() ?? 0) / largest) * Double(half)).rounded()))
            if abs(stored - expected) > max(3, expected / 6) { storedMisses += 1 }
        }
        // Within a pixel or two everywhere; the stored overview would miss a third of them or more.
        #expect(misses.count <= layout.scrubberWidth / 100, "\(misses.count) of \(layout.scrubberWidth): \(misses.prefix(8))")
        #expect(storedMisses >= layout.scrubberWidth / 3 && (extents.min() ?? 0) < half * 3 / 5, "\(storedMisses), \(extents.min() ?? 0)")
    }
}
