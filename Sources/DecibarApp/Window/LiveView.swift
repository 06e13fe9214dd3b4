import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// The live window's frame loop. It owns the process main thread (SDL wants the thread that
/// opened the window); audio arrives through the feed from the concurrency pool.
public struct LiveView {
    let target: TapTarget
    let display: DisplaySettings
    /// Added to the sink's measured latency (may be negative), seconds.
    let avOffset: Double

    /// `source` names a source or sink (its monitor); nil follows the default output's monitor.
    public init(source: String?, display: DisplaySettings, avOffset: Double) {
        target = source.map(TapTarget.named) ?? .defaultSinkMonitor
        self.display = display
        self.avOffset = avOffset
    }

    public func run() throws {
        let window = try FrameLoop.openWindow(options: display)
        let visualizer: Visualizer
        do {
            let shaders = try ShaderLibrary()
            visualizer = try Visualizer(options: display, shaders: shaders,
                                        labelSize: max(11, window.drawableSize.height / 48), now: MonotonicClock.now())
        } catch {
            throw CommandFailure(message: error.description)
        }
        let tap: PulseMonitorTap
        do {
            // A recording keeps 256-frame deliveries throughout: a sound after silence must not arrive late.
            tap = try PulseMonitorTap(target: target, relaxesInSilence: display.record == nil, measuresSinkLatency: true)
        } catch {
            throw CommandFailure(message: error.description)
        }
        let feed = AudioFeed()
        let pump = FeedPump(tap.buffers, into: feed)
        defer {
            tap.stop()
            pump.cancel()
            reportDroppedBuffers(tap)
        }
        tap.start()

        // Text is a nicety: without a font the bars still run, with a warning.
        var text: TextRenderer?
        var overlay = StatusOverlay()
        do {
            text = try TextRenderer(shaders: ShaderLibrary(), pixelSize: max(14, window.drawableSize.height / 24))
        } catch {
            writeError("warning: no on-screen text: \(error.description)")
        }

        var reporter = StatusReporter()
        var shownStatus: TapStatus?

        let recorder = try display.record.map { path in
            try Recorder(path: path, fps: display.recordFPS, width: window.drawableSize.width, height: window.drawableSize.height)
        }
        try FrameLoop(window: window, options: display, recorder: recorder).run { frame in
            let now = frame.now
            for case .key(let key) in frame.events { visualizer.handle(key) }
            let status = tap.status
            if status != shownStatus {
                shownStatus = status
                reporter.report(status)
                window.title = "Decibar — \(status.summary)"
            }
            overlay.update(status, at: now)

            // The monitor hears audio before the speakers do, by the sink's latency: show it then.
            feed.delay = tap.sinkLatency + avOffset
            let reading = feed.release(heardBy: now, observe: recorder.map { recorder in { recorder.audio($0, heardAt: $1) } })
            let (width, height) = window.drawableSize
            visualizer.update(reading: reading, feed: feed, dt: frame.dt, now: now, canvasWidth: width)
            let message = overlay.message(at: now)
            // Nothing moves: skip the drawing (and its CPU) but keep polling at the frame rate.
            if visualizer.isAtRest && display.record == nil && message == nil && !frame.isLast && frame.number > 0 && !frame.hadEvents {
                frame.skipsDrawing = true
                pump.isResting = true
                return
            }
            pump.isResting = false
            BarRenderer.clear(to: visualizer.clearColor)
            visualizer.draw(width: width, height: height, windowHeight: height, now: now)
            if let text, let message {
                Self.draw(message, with: text, width: width, height: height)
            }
            text?.endFrame()
            frame.loggedValue = visualizer.meanValue
        }
    }

    /// Waiting messages sit in the middle of the window; a device name sits small in a corner.
    private static func draw(_ message: StatusOverlay.Message, with text: TextRenderer, width: Int, height: Int) {
        let color = Color(red: 0.93, green: 0.94, blue: 0.97, alpha: 0.9 * message.opacity)
        let size = text.size(of: message.text)
        if message.isProminent {
            text.draw(message.text, x: (width - size.width) / 2, y: height / 2 - size.height - text.pixelSize / 2,
                      color: color, canvasWidth: width, canvasHeight: height)
        } else {
            let margin = text.pixelSize / 2
            text.draw(message.text, x: margin, y: margin, color: color, canvasWidth: width, canvasHeight: height)
        }
    }
}
