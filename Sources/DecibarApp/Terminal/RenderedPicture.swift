import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// Any mode drawn by the GL renderer offscreen (EGL on Mesa's surfaceless platform: no X or
/// Wayland, so it works over SSH), for the terminal: sent as a kitty or sixel image, or made into
/// half-block cells for a mode that has no text form (Milkdrop in a terminal without graphics).
final class RenderedPicture {
    let width: Int
    let height: Int
    let visualizer: Visualizer
    private let canvas: OffscreenCanvas
    /// The frame read back, top row first (RGBA), and what the encoders make of it.
    private var pixels: [UInt8] = []

    init(display: DisplaySettings, width: Int, height: Int, mode: VisualMode) throws(CommandFailure) {
        self.width = max(2, width)
        self.height = max(2, height)
        do {
            DrawingPriority.raiseCurrentThread()
            canvas = try OffscreenCanvas(width: self.width, height: self.height)
            var display = display
            display.mode = mode
            visualizer = try Visualizer(display: display, shaders: ShaderLibrary(), labelSize: max(11, self.height / 40), now: MonotonicClock.now())
        } catch {
            throw CommandFailure(message: "cannot draw \(mode.rawValue) in the terminal: \(error.description)")
        }
    }

    /// Moves the picture on by the frame's audio and draws it.
    func frame(feed: AudioFeed, dt: Double, now: Double, fps: Double) {
        canvas.makeCurrent()
        visualizer.displayPeriod = 1 / fps
        let reading = visualizer.release(feed, heardBy: now)
        visualizer.update(reading: reading, feed: feed, dt: dt, now: now, canvasWidth: width)
        BarRenderer.clear(to: visualizer.clearColor)
        visualizer.draw(width: width, height: height, windowHeight: height, now: now)
    }

    /// The frame just drawn, RGBA, top row first.
    func readPixels() -> [UInt8] {
        let bottomFirst = canvas.readRGBA()
        let row = width * 4
        if pixels.count != bottomFirst.count { pixels = bottomFirst }
        bottomFirst.withUnsafeBytes { source in
            pixels.withUnsafeMutableBytes { target in
                for y in 0..<height {
                    (target.baseAddress! + y * row).copyMemory(from: source.baseAddress! + (height - 1 - y) * row, byteCount: row)
                }
            }
        }
        return pixels
    }

    /// The frame as half blocks into `area` of `grid`: each cell two pixels high (the picture was
    /// drawn at the area's columns by twice its rows).
    func drawHalfBlocks(in area: PixelRect, into grid: inout CellGrid) {
        let rgba = readPixels()
        func color(_ x: Int, _ y: Int) -> UInt32 {
            let index = (min(height - 1, y) * width + min(width - 1, x)) * 4
            return UInt32(rgba[index]) << 16 | UInt32(rgba[index + 1]) << 8 | UInt32(rgba[index + 2])
        }
        for row in 0..<area.height {
            for column in 0..<area.width where grid.contains(x: area.x + column, y: area.y + row) {
                grid[area.x + column, area.y + row] = TerminalCell("\u{2580}", foreground: color(column, row * 2), background: color(column, row * 2 + 1))
            }
        }
    }
}
