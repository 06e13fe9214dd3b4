import DecibarCore
import DecibarRender
import Foundation

/// The frame loop every view shares, on any surface: measures dt, paces frames to the display,
/// handles quit, and on the way out saves the screenshot. The view draws each frame in `body`.
struct FrameLoop {
    struct Frame {
        /// 0 for the first frame.
        let number: Int
        /// CLOCK_MONOTONIC seconds at the start of this frame.
        let now: Double
        /// Seconds since the previous frame started (0 for the first).
        let dt: Double
        /// When the frame will be shown (its slot, when the loop paces itself; else `now`): the
        /// moment whose audio it draws.
        let shownAt: Double
        /// Frames a second shown now: the display's rate (`displayRate`), or a steady part of it
        /// for a picture slower than a slot (`FramePacer.divisor`).
        let rate: Double
        let displayRate: Double
        /// Input since the previous frame; quit is already handled (keys are the owner's: `KeyBindings`).
        /// What the on-screen display takes (a click on its controller) is removed before the view sees it.
        var events: [SurfaceEvent]
        /// How long the previous frame took from its start until it was drawn (shown, when the
        /// display's blank paces the frames), without a wait for its slot; 0 for the first.
        var previousFrameSeconds = 0.0
        /// Set to close the window after this frame.
        var closes = false
        /// Logged with the frame for the benchmarks (the mean bar value).
        var loggedValue: Float = 0
        /// The window closes after this frame (--exit-after reached, or quit).
        let isLast: Bool
        /// Input arrived (other than quit, which is handled).
        var hadEvents: Bool { !events.isEmpty }
        /// Set when nothing changed: the frame is not drawn or shown.
        var skipsDrawing = false
        /// Set to draw the frame even if nothing moves (a screenshot is waiting for it).
        var forcesDrawing = false
        /// Nothing of the window can be seen (a desktop layer under other windows): no need to draw.
        var isCovered = false
        /// The longest a skipped frame sleeps before the next (less: the view has work between frames).
        var restTimeout = FrameLoop.restTimeout
    }

    /// Opens the window the settings describe; warns when a transparent background cannot show.
    static func openWindow(display: DisplaySettings, hidden: Bool = false) throws -> Window {
        // Before the GL context: the rasterizer's threads start from this one.
        DrawingPriority.raiseCurrentThread()
        let window: Window
        do {
            window = try Window(title: "Decibar", width: display.size.width, height: display.size.height,
                                fullscreen: display.fullscreen, hidden: hidden, borderless: display.borderless,
                                transparent: display.background == .transparent, layer: display.layer, monitor: display.monitor,
                                placement: display.placement)
            if let warning = window.layerWarning { writeError("warning: " + warning) }
            // When the X server goes away, Xlib ends the process; leave no partial file behind.
            let display = window.displayName
            Window.whenDisplayIsLost {
                PartialOutput.discardAllInProgress()
                writeError("lost the connection to the display \(display); nothing more can be drawn")
            }
        } catch {
            throw CommandFailure(message: error.description)
        }
        if display.background == .transparent {
            // (Over other windows a layer is see-through of itself.)
            let asked = display.layer.isAboveWindows ? "--layer \(display.layer.rawValue)" : "--background transparent"
            if window.alphaBits == 0 {
                writeError("warning: \(asked): the display gave no framebuffer with alpha; the background shows black")
            } else if window.hasCompositor == false {
                writeError("warning: \(asked): no compositing window manager is running, so the background shows black on screen (screenshots keep the transparency)")
            }
        }
        return window
    }

    /// Where the frames go: a window or a layer, or any other surface.
    let surface: any Surface
    let display: DisplaySettings
    /// Set with --record: every drawn frame goes to it, and it is finished when the loop ends.
    var recorder: Recorder?

    /// The longest a window at rest (nothing moving) sleeps without input or sound.
    static let restTimeout = 0.25

    func run(_ body: (inout Frame) throws -> Void) throws {
        var lastFrame = MonotonicClock.now()
        do {
            try loop(body, lastFrame: &lastFrame)
        } catch {
            recorder?.abandon()
            throw error
        }
        try recorder?.finish(at: lastFrame)
    }

    private func loop(_ body: (inout Frame) throws -> Void, lastFrame: inout Double) throws {
        let frameLog = try display.frameLog.map { path throws(CommandFailure) in try LineLog(path: path, purpose: "frame log") }
        let refreshRate = surface.refreshRate
        if let fps = display.fps, refreshRate.map({ abs(fps - $0) > $0 * 0.01 }) ?? true {
            // Vertical blank would hold every frame to the display's rate: pace them ourselves.
            surface.stopWaitingForVSync()
        }
        var pacer = FramePacer(refreshRate: display.fps ?? refreshRate, vsyncClaimed: surface.requestedVSync)
        let start = MonotonicClock.now()
        var previous = start
        var number = 0
        var previousFrameSeconds = 0.0
        while true {
            let now = MonotonicClock.now()
            pacer.frameStarted(at: now)
            surface.makeCurrent()
            var events = surface.pollEvents()
            var quits = false
            events.removeAll { event in
                switch event {
                case .quit: quits = true
                default: return false
                }
                return true
            }
            let timeUp = display.exitAfter.map { now - start >= $0 } == true
            var frame = Frame(number: number, now: now, dt: now - previous, shownAt: max(now, pacer.upcomingSlot ?? now),
                              rate: 1 / pacer.interval, displayRate: 1 / pacer.period, events: events, closes: quits, isLast: quits || timeUp)
            frame.isCovered = surface.isFullyCovered
            frame.previousFrameSeconds = previousFrameSeconds
            previous = now
            number += 1
            try body(&frame)
            let finished = frame.closes || timeUp
            if frame.skipsDrawing && !finished && recorder == nil {
                // At rest: sleep until input, until the audio side wakes us (sound came back), or
                // for at most `restTimeout` (status messages and --exit-after still need a look).
                let untilExit = display.exitAfter.map { start + $0 - MonotonicClock.now() } ?? .infinity
                surface.waitForEvent(timeout: max(0.001, min(frame.restTimeout, untilExit)))
                continue
            }
            if finished, let path = display.screenshot { try Self.saveScreenshot(of: surface, to: path) }
            // Recorded at the moment its audio is heard, as it is shown.
            try recorder?.frameDrawn(in: surface, at: frame.shownAt)
            lastFrame = frame.shownAt
            var drawnAt: Double?
            if pacer.pacesItself {
                // Drawn ahead of the slot: finish it, then show it at the slot, not whenever the
                // drawing happened to end.
                surface.finishDrawing()
                drawnAt = MonotonicClock.now()
                MonotonicClock.sleep(seconds: pacer.presentDelay(drawnAt: MonotonicClock.now(), startedAt: now))
            }
            surface.present()
            // Stamped after the swap: the moment this frame is handed to the display.
            let shown = MonotonicClock.now()
            // (The wait for its slot is not the frame's own time.)
            previousFrameSeconds = (drawnAt ?? shown) - now
            // The drawing's own seconds last: a test can tell a slow picture from a late pacer.
            frameLog?.write("\(shown) \(frame.loggedValue) \(previousFrameSeconds)")
            if finished { return }
            MonotonicClock.sleep(seconds: pacer.delayAfterFrame(finishedAt: MonotonicClock.now()))
        }
    }

    /// Saves what was drawn into the back buffer (before the swap) as a PNG, atomically.
    static func saveScreenshot(of surface: any Surface, to path: String) throws {
        let frame = surface.readPixels()
        let png: [UInt8]
        do {
            png = try PNGImage.encode(rgba: frame.pixels, width: frame.width, height: frame.height, flipVertically: true)
        } catch {
            throw CommandFailure(message: "cannot write the screenshot to \(path.escapingControlCharacters): \(error.description)")
        }
        let out = try PartialOutput(destination: path)
        try out.write(png)
        try out.commit()
    }
}
