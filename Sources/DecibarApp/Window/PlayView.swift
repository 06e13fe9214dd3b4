import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// The player window's frame loop: bars for what is heard, the scrubber with playhead and labels,
/// and click/drag seeking. Owns the main thread like the live view.
public struct PlayView {
    public struct Settings: Sendable {
        public var files: [String]
        public var loops: Bool
        public var display: DisplaySettings
        public var scrubber: ScrubberSettings
        /// One line per seek for the benchmarks.
        public var seekLogPath: String?

        public init(files: [String], loops: Bool, display: DisplaySettings, scrubber: ScrubberSettings, seekLogPath: String? = nil) {
            self.files = files
            self.loops = loops
            self.display = display
            self.scrubber = scrubber
            self.seekLogPath = seekLogPath
        }
    }


    let settings: Settings

    public init(settings: Settings) {
        self.settings = settings
    }

    public func run() throws {
        let window = try FrameLoop.openWindow(options: settings.display)
        let visualizer: Visualizer
        let rects: RectRenderer
        let text: TextRenderer
        do {
            let shaders = try ShaderLibrary()
            let labelSize = PlayLayout(width: window.drawableSize.width, height: window.drawableSize.height).labelSize
            visualizer = try Visualizer(options: settings.display, shaders: shaders, labelSize: max(11, labelSize * 4 / 5),
                                        now: MonotonicClock.now())
            rects = try RectRenderer(shaders: shaders)
            text = try TextRenderer(shaders: shaders, pixelSize: labelSize)
        } catch {
            throw CommandFailure(message: error.description)
        }
        let session = PlaySession(files: settings.files, loops: settings.loops)
        // The window shows at once; the first file opens after the first frame. Opening it loads
        // FFmpeg (~45 ms of dynamic linking), which would otherwise hold up the first frame: the GL
        // driver's first draw waits on the same dynamic loader lock.

        let seekLog = try settings.seekLogPath.map { path throws(CommandFailure) in try LineLog(path: path, purpose: "seek log") }

        let recorder = try settings.display.record.map { path in
            try Recorder(path: path, fps: settings.display.recordFPS, width: window.drawableSize.width, height: window.drawableSize.height,
                         protecting: settings.files)
        }
        do {
            try loop(window: window, session: session, visualizer: visualizer, scrubber: ScrubberView(options: settings.scrubber, rects: rects, text: text),
                     recorder: recorder, seekLog: seekLog)
        } catch {
            session.close()
            throw error
        }
        session.close()
        // Every file was reported as it failed; the status says that nothing played.
        if session.cleanFileCount == 0 && session.failureCount > 0 { throw CommandFailure.silent(status: 1) }
    }

    private func loop(window: Window, session: PlaySession, visualizer: Visualizer, scrubber: ScrubberView, recorder: Recorder?,
                      seekLog: LineLog?) throws {
        var interaction = ScrubberInteraction()
        var decibels = settings.scrubber.decibels
        var hoverX: Double?
        var seekHandledAt: Double?
        var shownTitle: (key: TitleKey?, text: String) = (nil, "")
        try FrameLoop(window: window, options: settings.display, recorder: recorder).run { frame in
            let now = frame.now
            if frame.number == 1 {
                session.open(from: 0)
            }
            let (width, height) = window.drawableSize
            let layout = PlayLayout(width: width, height: height)
            session.refreshDuration()
            let geometry = layout.scrubberGeometry(duration: session.duration)
            let isPlaying = !(session.player?.isPaused ?? true)

            for event in frame.events {
                switch event {
                case .quit, .toggleFullscreen, .resized: break
                case .key(let key):
                    switch key {
                    case .playPause: isPlaying ? session.player?.pause() : session.player?.play()
                    case .back: session.seek(to: session.playhead - 5)
                    case .forward: session.seek(to: session.playhead + 5)
                    case .start: session.seek(to: 0)
                    case .end, .next: session.next()
                    case .previous: session.previous()
                    case .toggleDecibels: decibels.toggle()
                    case .cycleMode, .cycleShader: visualizer.handle(key)
                    }
                case .mouseDown(let x, let y):
                    if interaction.press(x: x, isInsideScrubber: layout.isOnScrubber(x: x, y: y), geometry: geometry,
                                         isPlaying: isPlaying) == .pause {
                        session.player?.pause()
                    }
                case .mouseMoved(let x, let y):
                    interaction.move(x: x, geometry: geometry)
                    hoverX = layout.isOnScrubber(x: x, y: y) ? x : nil
                case .mouseUp(let x, _):
                    if case .seek(let time, let resume) = interaction.release(x: x, geometry: geometry) {
                        session.seek(to: time)
                        seekHandledAt = now
                        if resume { session.player?.play() }
                    }
                }
            }
            if let handled = seekHandledAt, let written = session.player?.lastSeekWrittenAt {
                seekLog?.write("\(handled) \(written)")
                seekHandledAt = nil
            }
            if session.player?.isFinished == true { session.next() }
            if session.isOver {
                frame.closes = true
                return
            }

            // The visualizer: what is being heard now.
            let reading = session.heard.release(heardBy: now, observe: recorder.map { recorder in { recorder.audio($0, heardAt: $1) } })
            visualizer.update(reading: reading, feed: session.heard, dt: frame.dt, now: now, canvasWidth: width)
            frame.loggedValue = visualizer.meanValue
            BarRenderer.clear(to: visualizer.clearColor)
            visualizer.draw(width: width, height: layout.barsHeight, windowHeight: height, now: now)

            let snapshot = session.peaks?.snapshot ?? PeaksJob.Snapshot()
            // The title is made again only when what it says changes, not every frame.
            let titleKey = TitleKey(opening: frame.number == 0, track: session.index, paused: session.player?.isPaused == true,
                                    analyzed: session.peaks != nil && !snapshot.isDone ? Int(snapshot.progress * 100) : nil,
                                    underruns: session.player?.underrunCount ?? 0)
            if titleKey != shownTitle.key {
                var title = titleKey.opening ? "opening " + OutputPath.name(of: settings.files[0]) : session.currentName
                if titleKey.paused { title += "  (paused)" }
                if let analyzed = titleKey.analyzed { title += "  analyzing \(analyzed) %" }
                if titleKey.underruns > 0 { title += "  \(titleKey.underruns) underruns" }
                shownTitle = (titleKey, title)
                window.title = "Decibar — \(session.currentName)"
            }
            let title = shownTitle.text
            scrubber.draw(ScrubberView.State(
                peaks: snapshot.peaks, peaksKey: .init(track: session.index, version: snapshot.version), duration: session.duration,
                playhead: interaction.isActive ? interaction.previewTime : session.playhead, title: title,
                decibels: decibels, hoverX: hoverX, isDragging: interaction.isActive), layout: layout)

        }
    }

    /// What the scrubber's title says.
    private struct TitleKey: Equatable {
        var opening: Bool
        var track: Int
        var paused: Bool
        /// Percent analyzed while the overview is being made.
        var analyzed: Int?
        var underruns: Int
    }
}
