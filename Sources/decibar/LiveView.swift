import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// The live window's frame loop. It owns the process main thread (SDL wants the thread that
/// opened the window); audio arrives through the mailbox from the concurrency pool.
struct LiveView {
    let target: TapTarget
    let display: DisplayOptions

    /// With no audio for this long (server gone, device suspended), bars fall toward silence.
    static let silenceAfter = 0.1

    func run() throws {
        let window: Window
        let renderer: BarRenderer
        do {
            window = try Window(title: "Decibar", width: display.size.width, height: display.size.height,
                                fullscreen: display.fullscreen)
            renderer = try BarRenderer(shaders: ShaderLibrary())
        } catch {
            throw CommandFailure(message: error.description)
        }
        let tap: PulseMonitorTap
        do {
            tap = try PulseMonitorTap(target: target)
        } catch {
            throw CommandFailure(message: error.description)
        }
        let mailbox = LevelMailbox()
        let pump = TapPump(tap: tap, mailbox: mailbox)
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
            text = try TextRenderer(shaders: ShaderLibrary(),
                                    pixelSize: max(14, window.drawableSize.height / 24))
        } catch {
            writeError("warning: no on-screen text: \(error.description)")
        }

        let layout = BarLayout()
        let theme = BarTheme.default
        let scale = display.levelScale
        var smoother = BarSmoother(count: display.bars, times: display.smoothing)
        var targets = [Float](repeating: 0, count: display.bars)
        var reporter = StatusReporter()
        var shownStatus: TapStatus?
        var reading = LevelReading.silence(channelCount: 2)
        var lastAudio = -Double.infinity

        try FrameLoop(window: window, options: display).run { frame in
            let now = frame.now
            let status = tap.status
            if status != shownStatus {
                shownStatus = status
                reporter.report(status)
                window.title = "Decibar — \(status.summary)"
            }
            overlay.update(status, at: now)

            let fresh = mailbox.takeReading()
            if fresh.frameCount > 0 {
                reading = fresh
                lastAudio = now
            } else if now - lastAudio > Self.silenceAfter {
                reading = .silence(channelCount: reading.channelCount)
            }
            SymmetricBars.fill(&targets, level: scale.normalized(reading.combinedRMSDB),
                               peak: scale.normalized(reading.combinedPeakDB))
            smoother.advance(toward: targets, dt: frame.dt)

            let (width, height) = window.drawableSize
            renderer.draw(layout.rects(for: smoother.values, width: width, height: height),
                          width: width, height: height, theme: theme)
            if let text, let message = overlay.message(at: now) {
                Self.draw(message, with: text, width: width, height: height)
            }
            text?.endFrame()
            frame.loggedValue = smoother.values.reduce(0, +) / Float(max(1, smoother.values.count))
        }
    }

    /// Waiting messages sit in the middle of the window; a device name sits small in a corner.
    private static func draw(_ message: StatusOverlay.Message, with text: TextRenderer, width: Int, height: Int) {
        let colour = Colour(red: 0.93, green: 0.94, blue: 0.97, alpha: 0.9 * message.opacity)
        let size = text.size(of: message.text)
        if message.isProminent {
            text.draw(message.text, x: (width - size.width) / 2, y: height / 2 - size.height - text.pixelSize / 2,
                      colour: colour, canvasWidth: width, canvasHeight: height)
        } else {
            let margin = text.pixelSize / 2
            text.draw(message.text, x: margin, y: margin, colour: colour, canvasWidth: width, canvasHeight: height)
        }
    }
}
