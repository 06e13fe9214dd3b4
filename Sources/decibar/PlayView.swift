import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// The player window's frame loop: bars for what is heard, the scrubber with playhead and labels,
/// and click/drag seeking. Owns the main thread like the live view.
struct PlayView {
    struct Settings {
        var files: [String]
        var loops: Bool
        var display: DisplayOptions
        var scrubberBarWidth: Int
        var scrubberBarSpacing: Int
        var filter: ScrubberFilter
        var decibels: Bool
        var noiseFloor: Float
        var fillIndicator: Bool
        var seekLogPath: String?
    }

    let colours = ScrubberTheme.default

    let settings: Settings

    func run() throws {
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
        defer { session.close() }
        // The window shows at once; the first file opens after the first frame. Opening it loads
        // FFmpeg (~45 ms of dynamic linking), which would otherwise hold up the first frame: the GL
        // driver's first draw waits on the same dynamic loader lock.

        let seekLog = try settings.seekLogPath.map { path in
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw CommandFailure(message: "cannot write the seek log to \(path)")
            }
            return handle
        }
        defer { try? seekLog?.close() }

        var interaction = ScrubberInteraction()
        var decibels = settings.decibels
        var hoverX: Double?
        var seekHandledAt: Double?
        var cachedColumns: (key: String, heights: [Float], analysed: Int) = ("", [], 0)

        try FrameLoop(window: window, options: settings.display).run { frame in
            let now = frame.now
            if frame.number == 1 {
                session.open(from: 0)
                if session.isOver { throw CommandFailure(message: "none of the files could be played") }
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
                seekLog?.write(Data("\(handled) \(written)\n".utf8))
                seekHandledAt = nil
            }
            if session.player?.isFinished == true { session.next() }
            if session.isOver {
                frame.closes = true
                return
            }

            // The visualizer: what is being heard now.
            let reading = session.heard.release(heardBy: now)
            visualizer.update(reading: reading, feed: session.heard, dt: frame.dt, now: now, canvasWidth: width)
            frame.loggedValue = visualizer.meanValue
            BarRenderer.clear(to: visualizer.clearColour)
            visualizer.draw(width: width, height: layout.barsHeight, windowHeight: height, now: now)

            // Scrubber: recompute columns only when the overview, the size or the mode changed.
            let snapshot = session.peaks?.snapshot ?? PeaksJob.Snapshot()
            let columnCount = geometry.columnCount(barWidth: settings.scrubberBarWidth, spacing: settings.scrubberBarSpacing)
            let key = "\(session.index)/\(snapshot.version)/\(columnCount)/\(decibels)"
            if key != cachedColumns.key {
                cachedColumns = (key, [], 0)
                if let peaks = snapshot.peaks {
                    let totalPairs = Int((session.duration * Double(peaks.sampleRate) / Double(peaks.samplesPerPixel)).rounded(.up))
                    let columns = PeaksRescaler.columns(peaks, count: columnCount, totalLength: max(totalPairs, peaks.length),
                                                        filter: settings.filter)
                    let scale: ScrubberScale = decibels ? .decibels(floor: settings.noiseFloor) : .linear
                    let largest = peaks.largestMagnitude
                    cachedColumns.heights = columns.map { $0.map { scale.height(magnitude: $0.magnitude, largest: largest) } ?? 0 }
                    cachedColumns.analysed = columns.prefix { $0 != nil }.count
                }
            }
            let playhead = interaction.isActive ? interaction.previewTime : session.playhead
            let playheadX = geometry.x(forTime: playhead)
            var shapes: [(PixelRect, Colour)] = []
            let columnRects = layout.scrubberColumns(heights: cachedColumns.heights, barWidth: settings.scrubberBarWidth,
                                                     spacing: settings.scrubberBarSpacing)
            for (index, rect) in columnRects.enumerated() {
                let colour = index >= cachedColumns.analysed ? colours.pending
                    : Double(rect.x) < playheadX ? colours.played : colours.unplayed
                shapes.append((rect, colour))
            }
            // Columns not analysed yet: a thin line, so the track's length is visible at once.
            let centre = layout.scrubberTop + layout.scrubberHeight / 2
            let pendingStart = layout.scrubberLeft + cachedColumns.analysed * (settings.scrubberBarWidth + settings.scrubberBarSpacing)
            if pendingStart < layout.scrubberLeft + layout.scrubberWidth {
                shapes.append((PixelRect(x: pendingStart, y: centre, width: layout.scrubberLeft + layout.scrubberWidth - pendingStart,
                                         height: 1), colours.pending))
            }
            if settings.fillIndicator {
                shapes.append((PixelRect(x: layout.scrubberLeft, y: layout.scrubberTop,
                                         width: max(0, Int(playheadX) - layout.scrubberLeft), height: layout.scrubberHeight),
                               colours.played.withAlpha(0.18)))
            } else {
                shapes.append((PixelRect(x: Int(playheadX) - 1, y: layout.scrubberTop - 4, width: 2, height: layout.scrubberHeight + 8),
                               colours.playhead))
            }
            if let hoverX, !interaction.isActive {
                shapes.append((PixelRect(x: Int(hoverX), y: layout.scrubberTop, width: 1, height: layout.scrubberHeight),
                               Colour(hex: 0xFFFFFF, alpha: 0.35)))
            }
            rects.draw(shapes, canvasWidth: width, canvasHeight: height)

            // Labels: elapsed, title (and analysis progress), total; the time under the pointer.
            let elapsed = TimeLabel.text(seconds: playhead)
            let total = TimeLabel.text(seconds: session.duration)
            text.draw(elapsed, x: layout.scrubberLeft, y: layout.labelTop, colour: colours.label,
                      canvasWidth: width, canvasHeight: height)
            let totalSize = text.size(of: total)
            text.draw(total, x: layout.scrubberLeft + layout.scrubberWidth - totalSize.width, y: layout.labelTop,
                      colour: colours.label, canvasWidth: width, canvasHeight: height)
            var title = (frame.number == 0 ? "opening " + (settings.files[0] as NSString).lastPathComponent : session.currentName) + (session.player?.isPaused == true ? "  (paused)" : "")
            if session.peaks != nil && !snapshot.isDone { title += "  analysing \(Int(snapshot.progress * 100)) %" }
            let titleSize = text.size(of: title)
            text.draw(title, x: (width - titleSize.width) / 2, y: layout.labelTop, colour: colours.label,
                      canvasWidth: width, canvasHeight: height)
            // The time under the pointer while hovering; while dragging, the time the drop will seek to.
            if let labelX = interaction.isActive ? playheadX : hoverX {
                let hover = TimeLabel.text(seconds: geometry.time(forX: labelX))
                let hoverSize = text.size(of: hover)
                let x = min(max(0, Int(labelX) - hoverSize.width / 2), width - hoverSize.width)
                text.draw(hover, x: x, y: max(0, layout.scrubberTop - hoverSize.height - 6), colour: colours.label,
                          canvasWidth: width, canvasHeight: height)
            }
            text.endFrame()
            window.title = "Decibar — \(session.currentName)"

        }
    }
}
