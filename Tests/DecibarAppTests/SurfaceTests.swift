@testable import DecibarApp
import DecibarCore
import DecibarRender
import Testing

/// A surface of the test's own, as a new one (a terminal) would be: scripted input, frames counted.
private final class ScriptedSurface: Surface {
    private var script: [[SurfaceEvent]]
    private(set) var presented = 0
    private(set) var fullscreenToggles = 0
    var title = ""
    var drawableSize: (width: Int, height: Int) { (320, 200) }
    var refreshRate: Double? { 1000 }
    var requestedVSync: Bool { false }
    var isFullyCovered: Bool { false }

    init(script: [[SurfaceEvent]]) { self.script = script }

    func makeCurrent() {}
    func pollEvents() -> [SurfaceEvent] { script.isEmpty ? [] : script.removeFirst() }
    func waitForEvent(timeout: Double) {}
    func stopWaitingForVSync() {}
    func finishDrawing() {}
    func present() { presented += 1 }
    func toggleFullscreen() { fullscreenToggles += 1 }
    func readPixels(into pixels: inout [UInt8], width: Int, height: Int) {
        for index in 0 ..< width * height * 4 { pixels[index] = UInt8(index % 251) }
    }
}

@Suite("Surfaces: the frame loop runs on any type that conforms")
struct SurfaceTests {
    @Test("a surface defined outside the app runs the frame loop: its keys and pointer reach the view as a window's do, its quit ends the loop after one last frame, every frame is shown")
    func scriptedSurface() throws {
        let m = KeyChord("m"), f = KeyChord("f")
        let surface = ScriptedSurface(script: [[], [.key(m)], [.mouseDown(x: 3, y: 4, shift: false), .key(f)], [.quit]])
        var events: [[SurfaceEvent]] = []
        var last: [Bool] = []
        var commands: [ControlCommand?] = []
        let keys = KeyBindings()
        try FrameLoop(surface: surface, display: DisplaySettings()).run { frame in
            events.append(frame.events)
            last.append(frame.isLast)
            for case .key(let chord) in frame.events {
                let command = keys.command(for: chord, in: KeyBindings.contexts(mode: VisualMode(registered: "bars"), player: false))
                commands.append(command)
                if command == .fullscreen { surface.toggleFullscreen() }
            }
        }
        #expect(events == [[], [.key(m)], [.mouseDown(x: 3, y: 4, shift: false), .key(f)], []])
        #expect(last == [false, false, false, true])
        #expect(commands == [.mode(.next), .fullscreen])
        #expect(surface.presented == 4 && surface.fullscreenToggles == 1)
        let frame = surface.readPixels()
        #expect(frame.width == 320 && frame.height == 200 && frame.pixels.count == 320 * 200 * 4 && frame.pixels[252] == 1)
    }
}
