import DecibarAudio
import DecibarCore

/// The player in the terminal: the scrubber in the bottom rows, seeking with the mouse as the
/// window's does (press, drag heard as scrub audio, release plays from there; Shift selects a
/// loop; the wheel zooms around the time under the pointer), and the title and time under it.
final class TerminalPlayer {
    let session: PlaySession
    let options: ScrubberSettings
    private var interaction = ScrubberInteraction()
    private var scrubber = TextScrubber()
    /// The scrubber's rows as last laid out, and where its columns are in time.
    private var area = PixelRect(x: 0, y: 0, width: 0, height: 0)
    private var geometry = ScrubberGeometry(left: 0, width: 1, duration: 0)

    init(session: PlaySession, options: ScrubberSettings) {
        self.session = session
        self.options = options
    }

    /// Lays the scrubber out in the bottom rows of `columns`×`rows` cells; returns the rows left above it.
    func layout(columns: Int, rows: Int) -> Int {
        let taken = TextScrubber.rows(forHeight: rows).total
        area = PixelRect(x: 0, y: max(0, rows - taken), width: columns, height: min(rows, taken))
        refreshGeometry()
        return max(0, rows - taken)
    }

    private var isZoomable: Bool { !session.isLive && session.duration > 0 }

    private func refreshGeometry() {
        session.refreshDuration()
        session.scrubberWidth = Double(TextScrubber.waveformArea(area).width)
        geometry = TextScrubber.geometry(area, duration: session.duration, zoom: isZoomable ? session.view : nil)
    }

    /// A mouse report: cells map to the scrubber's time at their middle.
    func handle(_ mouse: TerminalMouse, now: Double) {
        refreshGeometry()
        let x = Double(mouse.column) + 0.5
        let onScrubber = mouse.row >= area.y && mouse.row < area.y + area.height
        switch mouse.action {
        case .press where mouse.button == 0:
            guard !session.isLive else { return }
            if case .startDrag(let wasPlaying) = interaction.press(x: x, isInsideScrubber: onScrubber, geometry: geometry,
                                                                  isPlaying: session.status == .playing, selectsLoop: mouse.shift) {
                let heard = options.scrubAudio && session.beginScrub(at: interaction.previewTime, now: now)
                if !heard && wasPlaying { session.pause() }
            }
        case .motion:
            interaction.move(x: x, geometry: geometry)
        case .release:
            switch interaction.release(x: x, geometry: geometry) {
            case .seek(let time, let resume) where session.scrubbing != nil:
                session.endScrub(at: time, resume: resume)
            case .seek(let time, let resume):
                session.seek(to: time)
                if resume { session.play() }
            case .loop(let start, let end):
                _ = session.setLoop(from: start, to: end)
            case .none, .startDrag: break
            }
        case .wheelUp, .wheelDown:
            guard isZoomable, onScrubber else { return }
            session.zoom(by: ScrubberZoom.ratio(wheelSteps: mouse.action == .wheelUp ? 1 : -1), around: geometry.time(forX: x))
        case .press: break
        }
    }

    /// The session's work for the frame: the next track, the stream, the scrub preview, the view.
    func tick(now: Double) {
        session.tick()
        if interaction.isSeeking, session.scrubbing != nil { session.scrub(to: interaction.previewTime, now: now) }
        if isZoomable && !interaction.isActive { session.followPlayhead(options.follow) }
        refreshGeometry()
    }

    /// Whether what the scrubber shows moves (the playhead, a drag, the overview growing).
    var isMoving: Bool { session.status == .playing || interaction.isActive || session.peaks?.snapshot.isDone == false }

    func draw(theme: BarTheme, into grid: inout CellGrid) {
        let snapshot = session.peaks?.snapshot ?? PeaksJob.Snapshot()
        var title = session.index < 0 ? "opening " + OutputPath.name(of: session.files.first ?? "") : session.currentName
        switch session.status {
        case .paused: title += "  (paused)"
        case .stopped: title += "  (stopped)"
        case .buffering: title += "  buffering…"
        default: break
        }
        if !session.rateAndPitch.isNormal { title += "  " + session.rateAndPitch.label }
        if let loop = interaction.loopSelection ?? session.abLoop { title += "  loop " + TimeLabel.text(seconds: loop.start) + "-" + TimeLabel.text(seconds: loop.end) }
        let state = TextScrubber.State(peaks: snapshot.peaks, version: snapshot.version, track: session.index, duration: session.duration,
                                       playhead: interaction.isSeeking ? interaction.previewTime : session.playhead, title: title,
                                       isDragging: interaction.isSeeking)
        scrubber.draw(state, in: area, geometry: geometry, theme: theme, into: &grid)
    }
}
