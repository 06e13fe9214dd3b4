/// Where a loop of frames is drawn and shown: an SDL window or a desktop layer (`Window`), an
/// offscreen canvas, or any other place that shows pictures and reports input (a terminal). The
/// frame loop, the screens and the recorder see only this, so a new surface is a new type that
/// conforms, in a folder of its own; its keys and pointer arrive as the same `SurfaceEvent`s.
public protocol Surface: AnyObject {
    /// The pixels drawn into.
    var drawableSize: (width: Int, height: Int) { get }
    /// What it is called where it shows (a window's title bar).
    var title: String { get set }
    /// How often it can show a frame, when it knows (the monitor's refresh rate).
    var refreshRate: Double? { get }
    /// Showing a frame waits for the display's vertical blank.
    var requestedVSync: Bool { get }
    /// Nothing of it can be seen now (a layer under other windows): drawing can wait.
    var isFullyCovered: Bool { get }
    /// Makes its GL context the one drawn into; call before drawing.
    func makeCurrent()
    /// The input since the last call; never blocks.
    func pollEvents() -> [SurfaceEvent]
    /// Blocks until input arrives, the app wakes it, or `timeout` seconds pass.
    func waitForEvent(timeout: Double)
    /// Shows frames when told rather than at vertical blank (a frame rate other than the display's).
    func stopWaitingForVSync()
    /// Waits until the frame is drawn, without showing it (a software renderer draws only now).
    func finishDrawing()
    /// Shows the frame just drawn.
    func present()
    /// Reads the bottom-left `width`×`height` pixels of the frame just drawn (RGBA, bottom row
    /// first) into `pixels`, which holds `width × height × 4` bytes.
    func readPixels(into pixels: inout [UInt8], width: Int, height: Int)
    /// Fills the surface, or gives the space back (where it means anything).
    func toggleFullscreen()
    /// Puts `text` where the desktop's paste takes it from; false where there is no clipboard.
    func copyToClipboard(_ text: String) -> Bool
}

extension Surface {
    public func copyToClipboard(_ text: String) -> Bool { false }

    /// The whole frame just drawn (before it is shown), RGBA rows bottom to top.
    public func readPixels() -> (pixels: [UInt8], width: Int, height: Int) {
        let (width, height) = drawableSize
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        finishDrawing()
        readPixels(into: &pixels, width: width, height: height)
        return (pixels, width, height)
    }
}
