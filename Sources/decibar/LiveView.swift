import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// The live window's frame loop. It owns the process main thread (SDL wants the thread that
/// opened the window); audio arrives through the mailbox from the concurrency pool.
struct LiveView {
    struct Settings {
        var target: TapTarget
        var barCount: Int
        var size: WindowSize
        var fullscreen: Bool
        var exitAfter: Double?
        var screenshotPath: String?
        var smoothing: SmoothingTimes
        var scale: LevelScale
        var frameLogPath: String?
    }

    /// With no audio for this long (server gone, device suspended), bars fall toward silence.
    static let silenceAfter = 0.1

    let settings: Settings

    func run() throws {
        let window: Window
        let renderer: BarRenderer
        do {
            window = try Window(title: "Decibar", width: settings.size.width, height: settings.size.height,
                                fullscreen: settings.fullscreen)
            renderer = try BarRenderer(shaders: ShaderLibrary())
        } catch {
            throw CommandFailure(message: error.description)
        }
        let tap: PulseMonitorTap
        do {
            tap = try PulseMonitorTap(target: settings.target)
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

        let frameLog = settings.frameLogPath.flatMap { FileHandle(forWritingAtPath: $0) ?? Self.create($0) }
        let layout = BarLayout()
        let theme = BarTheme.default
        var smoother = BarSmoother(count: settings.barCount, times: settings.smoothing)
        var targets = [Float](repeating: 0, count: settings.barCount)
        var pacer = FramePacer(refreshRate: window.refreshRate, vsyncClaimed: window.requestedVSync)
        var reporter = StatusReporter()
        var shownStatus: TapStatus?
        var reading = LevelReading.silence(channelCount: 2)
        let start = MonotonicClock.now()
        var previousFrame = start
        var lastAudio = -Double.infinity
        var running = true

        while running {
            let now = MonotonicClock.now()
            pacer.frameStarted(at: now)
            let dt = now - previousFrame
            previousFrame = now

            for event in window.pollEvents() {
                switch event {
                case .quit: running = false
                case .toggleFullscreen: window.toggleFullscreen()
                case .resized, .key, .mouseDown, .mouseMoved, .mouseUp: break
                }
            }
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
            SymmetricBars.fill(&targets, level: settings.scale.normalized(reading.combinedRMSDB),
                               peak: settings.scale.normalized(reading.combinedPeakDB))
            smoother.advance(toward: targets, dt: dt)

            let (width, height) = window.drawableSize
            renderer.draw(layout.rects(for: smoother.values, width: width, height: height),
                          width: width, height: height, theme: theme)
            if let text, let message = overlay.message(at: now) {
                Self.draw(message, with: text, width: width, height: height)
            }
            text?.endFrame()

            let finished = !running || settings.exitAfter.map { now - start >= $0 } == true
            if finished, let path = settings.screenshotPath {
                try saveScreenshot(window, to: path)
            }
            window.swap()
            if let frameLog {
                // Stamped after the swap: the moment this frame is handed to the display.
                let mean = smoother.values.reduce(0, +) / Float(max(1, smoother.values.count))
                frameLog.write(Data("\(MonotonicClock.now()) \(mean)\n".utf8))
            }
            if finished { break }
            MonotonicClock.sleep(seconds: pacer.delayAfterFrame(finishedAt: MonotonicClock.now()))
        }
        try? frameLog?.close()
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

    private static func create(_ path: String) -> FileHandle? {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: path)
    }

    private func saveScreenshot(_ window: Window, to path: String) throws {
        let frame = window.readPixels()
        let png = PNGEncoder.encode(rgba: frame.pixels, width: frame.width, height: frame.height, flipVertically: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(png)) else {
            throw CommandFailure(message: "cannot write the screenshot to \(path)")
        }
    }
}
