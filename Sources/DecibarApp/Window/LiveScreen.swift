import DecibarAudio
import DecibarCore
import DecibarRender

/// What a window shows of a live tap, frame by frame: the bars for what is heard now, the tap's
/// status in the title and over the bars. The live window is this alone; the daemon's window shows
/// it whenever its player has nothing open.
final class LiveScreen {
    let tap: any LiveTap
    let feed: AudioFeed
    let pump: FeedPump
    /// Added to the sink's measured latency (may be negative), seconds.
    var avOffset: Double
    /// Text is a nicety: without a font the bars still run.
    private let text: TextRenderer?
    private var overlay = StatusOverlay()
    private var reporter = StatusReporter()
    private var shownStatus: TapStatus?
    /// What the picture adds to the window's title (a preset's name), as last set.
    private var shownTitleSuffix = ""
    /// A message of the app's own (a config problem), shown in the corner until a time.
    var notice: (text: String, until: Double)?

    init(tap: any LiveTap, feed: AudioFeed, pump: FeedPump, avOffset: Double, text: TextRenderer?) {
        self.tap = tap
        self.feed = feed
        self.pump = pump
        self.avOffset = avOffset
        self.text = text
    }

    /// The text renderer status messages use, sized for `surface`; nil (with a warning) without a font.
    static func makeText(for surface: any Surface) -> TextRenderer? {
        do {
            return try TextRenderer(shaders: ShaderLibrary(), pixelSize: max(14, surface.drawableSize.height / 24))
        } catch {
            writeError("warning: no on-screen text: \(error.description)")
            return nil
        }
    }

    /// Moves the bars on by the frame and draws them, or marks the frame as skipped when nothing moves.
    func frame(_ frame: inout FrameLoop.Frame, surface: any Surface, visualizer: Visualizer, recorder: Recorder?, onScreen: OnScreenDisplay? = nil) {
        visualizer.displayPeriod = 1 / frame.displayRate
        // The audio heard when the frame shows (its slot), not when its drawing starts.
        let now = frame.shownAt
        let status = tap.status
        if status != shownStatus || visualizer.titleSuffix != shownTitleSuffix {
            if status != shownStatus { reporter.report(status) }
            shownStatus = status
            shownTitleSuffix = visualizer.titleSuffix
            surface.title = "Decibar — \(status.summary)" + shownTitleSuffix
        }
        overlay.update(status, at: now)

        // The monitor hears audio before the speakers do, by the sink's latency: show it then.
        feed.delay = tap.sinkLatency + avOffset
        let reading = visualizer.release(feed, heardBy: now, observe: recorder.map { recorder in { recorder.audio($0, heardAt: $1) } })
        let (width, height) = surface.drawableSize
        visualizer.update(reading: reading, feed: feed, dt: frame.dt, now: now, canvasWidth: width)
        let message = notice.flatMap { $0.until > now ? StatusOverlay.Message(text: $0.text, opacity: 1, isProminent: false) : nil }
            ?? overlay.message(at: now)
        // Nothing moves, or nothing can be seen: skip the drawing (and its CPU) but keep polling.
        let overlaid = onScreen?.needsDrawing(at: now) == true
        if (visualizer.isAtRest && message == nil && !frame.hadEvents && !overlaid || frame.isCovered) && recorder == nil && !frame.isLast
            && frame.number > 0 && !frame.forcesDrawing {
            frame.skipsDrawing = true
            // (Covered, sound coming back changes nothing seen: no wake-up for it.)
            pump.isResting = !frame.isCovered
            return
        }
        pump.isResting = false
        BarRenderer.clear(to: visualizer.clearColor)
        visualizer.draw(width: width, height: height, windowHeight: height, now: now)
        if let text, let message {
            Self.draw(message, with: text, width: width, height: height)
        }
        text?.endFrame()
        if let notice = visualizer.takeNotice() { onScreen?.say(notice, now: frame.now) }
        let (tap, feed) = (self.tap, self.feed)
        onScreen?.draw(width: width, height: height, now: frame.now) { OnScreenDisplay.Facts(visualizer: visualizer, tap: tap, delay: feed.delay) }
        frame.loggedValue = visualizer.meanValue
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
            text.draw(StatusOverlay.fitting(message.text, width: width - 2 * margin, with: text), x: margin, y: margin, color: color,
                      canvasWidth: width, canvasHeight: height)
        }
    }
}
