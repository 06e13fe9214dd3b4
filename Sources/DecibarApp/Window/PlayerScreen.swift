import DecibarAudio
import DecibarCore
import DecibarRender

/// What a window shows of the player, frame by frame: bars for what is heard, the scrubber with
/// playhead and labels, click/drag seeking and the player's keys. `play` is this alone; the
/// daemon's window shows it while its player has a playlist.
final class PlayerScreen {
    let session: PlaySession
    private let scrubber: ScrubberView
    private let pictures: PictureRenderer
    /// The track's lyrics or captions, a line over the bars.
    private let captions: CaptionView
    /// The picture whose frame the renderer holds.
    private var shownVideo: ObjectIdentifier?
    /// Where the last scrub preview was asked for, and when.
    private var previewAsked: (time: Double, at: Double)?
    private let seekLog: LineLog?
    private var interaction = ScrubberInteraction()
    /// The minimap's window is being dragged.
    private var isPanning = false
    var decibels: Bool
    private var hoverX: Double?
    private var seekHandledAt: Double?
    private var shownTitle: (key: TitleKey?, text: String) = (nil, "")
    /// What the picture adds to the window's title (a preset's name), as last set.
    private var shownTitleSuffix = ""
    private var noticeSerial = 0
    private var noticeUntil = -Double.infinity
    /// How long a change of volume or loop shows in the title.
    static let noticeSeconds = 2.0

    init(session: PlaySession, scrubber: ScrubberView, pictures: PictureRenderer, captions: CaptionView, decibels: Bool,
         seekLog: LineLog? = nil) {
        self.session = session
        self.scrubber = scrubber
        self.pictures = pictures
        self.captions = captions
        self.decibels = decibels
        self.seekLog = seekLog
    }

    /// The renderers a player screen needs, sized for `surface`.
    static func makeRenderers(for surface: any Surface, shaders: ShaderLibrary) throws(RenderError)
        -> (rects: RectRenderer, text: TextRenderer, pictures: PictureRenderer, captions: CaptionView) {
        let (width, height) = surface.drawableSize
        let labelSize = PlayLayout(width: width, height: height).labelSize
        return (try RectRenderer(shaders: shaders), try TextRenderer(shaders: shaders, pixelSize: labelSize),
                try PictureRenderer(shaders: shaders), try CaptionView(shaders: shaders, width: width, height: height))
    }

    /// The visualizer's label size under a player layout.
    static func labelSize(for surface: any Surface) -> Int {
        max(11, PlayLayout(width: surface.drawableSize.width, height: surface.drawableSize.height).labelSize * 4 / 5)
    }

    /// The player's settings as they stand (the scrubber's scale, the loop), for `cycle`.
    func currentValue(of key: ConfigKey) -> JSONValue? {
        switch key {
        case ConfigSchema.player.decibels.key: .bool(decibels)
        case ConfigSchema.player.loop.key: .string(session.loop.rawValue)
        default: nil
        }
    }

    /// Takes a player setting at once; false for one it cannot (the scrubber's look is drawn as
    /// the window opens).
    func apply(_ key: ConfigKey, from settings: Configuration) throws(ControlFailure) -> Bool {
        let rows = ConfigSchema.player
        switch key {
        case rows.decibels.key: decibels = settings[rows.decibels]
        case rows.loop.key: session.loop = settings[rows.loop]
        case rows.shuffle.key: session.setShuffle(settings[rows.shuffle])
        case rows.volume.key: session.setVolume(settings[rows.volume])
        case rows.rate.key: session.setRateAndPitch(session.rateAndPitch.with(rate: settings[rows.rate]))
        case rows.pitch.key: session.setRateAndPitch(session.rateAndPitch.with(pitch: settings[rows.pitch]))
        default: return false
        }
        return true
    }

    /// How often the session is looked after while nothing is drawn.
    static let coveredTickSeconds = 0.05

    /// Where the scrubber is this frame: the layout, the time each pixel shows, and whether the
    /// track can be zoomed (a file with a length).
    private struct Place {
        var layout: PlayLayout
        var geometry: ScrubberGeometry
        let zoomable: Bool
    }

    /// Handles the frame's input, then draws the bars and the scrubber.
    func frame(_ frame: inout FrameLoop.Frame, surface: any Surface, visualizer: Visualizer, recorder: Recorder?, onScreen: OnScreenDisplay? = nil) {
        visualizer.displayPeriod = 1 / frame.displayRate
        let now = frame.now
        // What is drawn is what is heard when the frame shows (its slot), not when its drawing starts.
        let shownAt = frame.shownAt
        let (width, height) = surface.drawableSize
        let place = handlePointer(frame.events, width: width, height: height, now: now)
        session.tick()
        if session.isOver { return }

        // The visualizer: what is being heard now.
        let reading = visualizer.release(session.heard, heardBy: shownAt, observe: recorder.map { recorder in { recorder.audio($0, heardAt: $1) } })
        visualizer.update(reading: reading, feed: session.heard, dt: frame.dt, now: shownAt, canvasWidth: width)
        frame.loggedValue = visualizer.meanValue
        // Nothing of it can be seen (a covered desktop layer): the bars move on, nothing is drawn.
        if frame.isCovered && recorder == nil && !frame.isLast && frame.number > 0 && !frame.forcesDrawing {
            frame.skipsDrawing = true
            // The session still wants its ticks (the next track, the stream's buffering) on time.
            frame.restTimeout = Self.coveredTickSeconds
            return
        }
        let area = showPicture(layout: place.layout, now: now, lead: shownAt - now)
        let snapshot = session.peaks?.snapshot ?? PeaksJob.Snapshot()
        let stream = session.streamSnapshot
        refreshTitle(of: surface, visualizer: visualizer, snapshot: snapshot, stream: stream, now: now)
        let state = scrubberState(place, snapshot: snapshot, stream: stream)
        PlayerFrame(visualizer: visualizer, pictures: pictures, scrubber: scrubber).draw(layout: place.layout, area: area, scrubberState: state, now: shownAt)
        if let lyrics = session.captions, !session.isLive {
            // Timed to the playhead (what is heard), as the scrubber is.
            let time = session.playhead
            captions.draw(lyrics.showing(at: time), at: time, bottom: place.layout.barsHeight - place.layout.labelSize / 2,
                          canvasWidth: width, canvasHeight: height)
        }
        if let notice = visualizer.takeNotice() { onScreen?.say(notice, now: now) }
        let session = self.session
        onScreen?.draw(width: width, height: height, now: now) { OnScreenDisplay.Facts(visualizer: visualizer, session: session) }
    }

    /// The pointer's clicks, drags and wheel on the scrubber and its minimap (keys are the
    /// bindings'); then the scrub preview, the view following the playhead, and the seek log.
    private func handlePointer(_ events: [SurfaceEvent], width: Int, height: Int, now: Double) -> Place {
        session.refreshDuration()
        let zoomable = !session.isLive && session.duration > 0
        // Zoomed in, the minimap shows where the scrubber's stretch lies in the whole track.
        let layout = PlayLayout(width: width, height: height, showsMinimap: zoomable && !session.view.isWhole)
        session.scrubberWidth = Double(layout.scrubberWidth)
        var place = Place(layout: layout, geometry: zoomable ? layout.scrubberGeometry(zoom: session.view) : layout.scrubberGeometry(duration: session.duration),
                          zoomable: zoomable)
        let isPlaying = session.status == .playing
        for event in events {
            handle(event, place: place, isPlaying: isPlaying, now: now)
            if zoomable {
                // A zoom or pan takes effect for the next event of this frame.
                place.layout = PlayLayout(width: width, height: height, showsMinimap: !session.view.isWhole)
                place.geometry = place.layout.scrubberGeometry(zoom: session.view)
            }
        }
        if interaction.isSeeking, session.scrubbing != nil { session.scrub(to: interaction.previewTime, now: now) }
        if zoomable && !interaction.isActive && !isPanning {
            session.followPlayhead(scrubber.options.follow)
            place.geometry = place.layout.scrubberGeometry(zoom: session.view)
        }
        if let handled = seekHandledAt, let written = session.player?.lastSeekWrittenAt {
            seekLog?.write("\(handled) \(written)")
            seekHandledAt = nil
        }
        return place
    }

    private func handle(_ event: SurfaceEvent, place: Place, isPlaying: Bool, now: Double) {
        let (layout, geometry) = (place.layout, place.geometry)
        switch event {
        case .quit, .resized, .key, .text, .dropped: break
        case .pointerLeft: hoverX = nil
        case .mouseDown(let x, let y, let shift):
            if layout.isOnMinimap(x: x, y: y) {
                isPanning = true
                pan(to: x, layout: layout)
            } else if case .startDrag(let wasPlaying) = interaction.press(
                x: x, isInsideScrubber: layout.isOnScrubber(x: x, y: y), geometry: geometry,
                isPlaying: isPlaying, selectsLoop: shift) {
                // Heard while dragging, or paused as a tape deck's seed did (and when nothing can be heard).
                let heard = scrubber.options.scrubAudio && session.beginScrub(at: interaction.previewTime, now: now)
                if !heard && wasPlaying { session.pause() }
            }
        case .mouseMoved(let x, let y):
            if isPanning { pan(to: x, layout: layout) }
            interaction.move(x: x, geometry: geometry)
            hoverX = layout.isOnScrubber(x: x, y: y) ? x : nil
        case .mouseUp(let x, _):
            isPanning = false
            switch interaction.release(x: x, geometry: geometry) {
            case .seek(let time, let resume) where session.scrubbing != nil:
                session.endScrub(at: time, resume: resume)
                seekHandledAt = now
            case .seek(let time, let resume):
                session.seek(to: time)
                seekHandledAt = now
                if resume { session.play() }
            case .loop(let start, let end):
                session.setLoop(from: start, to: end)
            case .none, .startDrag: break
            }
        case .wheel(let x, let y, let steps):
            // Around the time under the pointer, which stays under it.
            guard place.zoomable, layout.isOnScrubber(x: x, y: y) || layout.isOnMinimap(x: x, y: y) else { break }
            session.zoom(by: ScrubberZoom.ratio(wheelSteps: steps), around: geometry.time(forX: x))
        }
    }

    /// The window's title and the scrubber's: made again only when what they say changes, not every frame.
    private func refreshTitle(of surface: any Surface, visualizer: Visualizer, snapshot: PeaksJob.Snapshot, stream: StreamSnapshot?, now: Double) {
        if session.notice.serial != noticeSerial {
            noticeSerial = session.notice.serial
            noticeUntil = now + Self.noticeSeconds
        }
        let titleKey = TitleKey(opening: session.index < 0, track: session.index, status: session.status,
                                analyzed: session.peaks != nil && !snapshot.isDone ? Int(snapshot.progress * 100) : nil,
                                underruns: session.underrunCount, notice: now < noticeUntil ? noticeSerial : nil,
                                isConnecting: session.isConnecting, streamTitle: stream?.title,
                                rateAndPitch: session.rateAndPitch)
        guard titleKey != shownTitle.key || visualizer.titleSuffix != shownTitleSuffix else { return }
        shownTitleSuffix = visualizer.titleSuffix
        var title = titleKey.opening ? "opening " + OutputPath.name(of: session.files.first ?? "") : session.currentName
        if titleKey.status == .paused { title += "  (paused)" }
        if titleKey.status == .stopped { title += "  (stopped)" }
        if let streamTitle = titleKey.streamTitle, !streamTitle.isEmpty { title += " — " + streamTitle }
        if !titleKey.rateAndPitch.isNormal { title += "  " + titleKey.rateAndPitch.label }
        if titleKey.status == .buffering { title += titleKey.isConnecting ? "  connecting…" : "  buffering…" }
        if titleKey.notice != nil { title += "  " + session.notice.text }
        if let analyzed = titleKey.analyzed, !session.isLive { title += "  analyzing \(analyzed) %" }
        if titleKey.underruns > 0 { title += "  \(titleKey.underruns) underruns" }
        shownTitle = (titleKey, title)
        surface.title = "Decibar — \(session.currentName)" + shownTitleSuffix
    }

    /// What the scrubber shows this frame: the whole track (or the stretch zoomed into), or a
    /// radio's last minutes rolling by.
    private func scrubberState(_ place: Place, snapshot: PeaksJob.Snapshot, stream: StreamSnapshot?) -> ScrubberView.State {
        let spectrogram = scrubberSpectrogram(columns: place.layout.scrubberWidth)
        if session.isLive {
            // A radio: the last minutes roll through the scrubber, which does not seek.
            let window = rollingWindow(snapshot)
            return ScrubberView.State(
                peaks: window.peaks, peaksKey: .init(track: session.index, version: snapshot.version), duration: window.duration,
                playhead: max(0, session.playhead - window.start), title: shownTitle.text, decibels: decibels, hoverX: nil,
                isLive: true, timeOffset: window.start)
        }
        let columns = place.geometry.columnCount(barWidth: scrubber.options.barWidth, spacing: scrubber.options.barSpacing)
        return ScrubberView.State(
            peaks: snapshot.peaks, peaksKey: .init(track: session.index, version: snapshot.version), duration: session.duration,
            playhead: interaction.isSeeking ? interaction.previewTime : session.playhead, title: shownTitle.text,
            decibels: decibels, hoverX: hoverX, isDragging: interaction.isSeeking,
            downloaded: stream.map(downloadShading), view: place.zoomable ? session.view : nil, chapters: session.chapters,
            loop: interaction.loopSelection.map { ($0.start, $0.end) } ?? session.loopPoints,
            finer: place.zoomable ? session.finerOverview(columnCount: columns) : nil,
            spectrogram: spectrogram)
    }

    /// `--scrubber spectrogram`: the track's spectrogram as far as its job has got, starting a job
    /// for each new track on disk (a stream shows its waveform).
    private func scrubberSpectrogram(columns: Int) -> (result: SpectrogramOverview.Result, version: Int)? {
        guard scrubber.showsSpectrogram, !session.isLive, session.files.indices.contains(session.index) else { return nil }
        let path = session.files[session.index]
        if spectrogramJob?.track != session.index || spectrogramJob?.path != path {
            spectrogramJob?.job?.cancel()
            // A stream keeps its waveform: no job for it.
            let isFile = if case .file = MediaLocation(path) { true } else { false }
            spectrogramJob = (session.index, path, isFile ? SpectrogramJob(path: path, columns: columns) : nil)
        }
        guard let snapshot = spectrogramJob?.job?.snapshot, let result = snapshot.result else { return nil }
        return (result, snapshot.version)
    }

    /// The track the scrubber's spectrogram is of, and its job (none for a stream).
    private var spectrogramJob: (track: Int, path: String, job: SpectrogramJob?)?

    deinit { spectrogramJob?.job?.cancel() }

    /// Takes the video frame due when this frame shows, `lead` seconds from now (or the scrub
    /// preview while dragging), into the renderer, and says where the picture and the bars go.
    private func showPicture(layout: PlayLayout, now: Double, lead: Double) -> PictureLayout {
        guard let video = session.video, let info = video.info else {
            shownVideo = nil
            return PictureLayout(.off, aspectRatio: nil, width: layout.width, areaHeight: layout.barsHeight)
        }
        let area = PictureLayout(session.videoLayout, aspectRatio: info.aspectRatio, width: layout.width, areaHeight: layout.barsHeight)
        guard let rect = area.picture else { return area }
        if shownVideo != ObjectIdentifier(video) {
            shownVideo = ObjectIdentifier(video)
            pictures.forget()
        }
        let size = PictureLayout.decodeSize(for: rect, pictureWidth: info.width, pictureHeight: info.height)
        video.setDecodeSize(width: size.width, height: size.height)
        if interaction.isSeeking {
            // Dragging: the keyframe nearest the pointer, asked for again when the pointer moved and
            // the last one had time to come (the exact frame follows on release, with the seek).
            let time = interaction.previewTime
            if previewAsked.map({ $0.time != time && now - $0.at > Self.previewInterval }) ?? true {
                video.seek(to: time, exact: false)
                previewAsked = (time, now)
            }
        } else {
            previewAsked = nil
        }
        if let picture = video.picture(heard: interaction.isSeeking ? interaction.previewTime : session.playhead + (session.status == .playing ? lead * session.rateAndPitch.rate : 0)) {
            pictures.upload(picture)
            video.recycle(picture)
        }
        // The picture's place is kept from the moment the file is open, so the bars do not jump
        // when its first frame arrives.
        return area
    }

    /// Centers the scrubber's stretch on the time under `x` on the minimap (the whole track).
    private func pan(to x: Double, layout: PlayLayout) {
        let view = session.view
        session.pan(to: layout.scrubberGeometry(duration: view.duration).time(forX: x) - view.span / 2)
    }

    /// How often a drag asks for a new preview frame.
    static let previewInterval = 0.05

    /// What the scrubber's title says.
    private struct TitleKey: Equatable {
        var opening: Bool
        var track: Int
        var status: PlaybackStatus
        /// Percent analyzed while the overview is being made.
        var analyzed: Int?
        var underruns: Int
        /// The notice shown (volume, loop), while it shows.
        var notice: Int?
        var isConnecting = false
        /// What a radio says it is playing (ICY metadata).
        var streamTitle: String?
        var rateAndPitch = RateAndPitch.normal
    }

    /// How much of a radio the scrubber shows.
    static let liveSeconds = 300.0

    /// The last `liveSeconds` of a radio's overview, cut again only when the overview grows.
    private func rollingWindow(_ snapshot: PeaksJob.Snapshot) -> (peaks: Peaks?, start: Double, duration: Double) {
        let end = max(session.duration, session.playhead)
        let start = max(0, end - Self.liveSeconds)
        guard let peaks = snapshot.peaks else { return (nil, start, end - start) }
        if snapshot.version != rolling.version {
            let first = min(peaks.length, Int(start * Double(peaks.sampleRate) / Double(peaks.samplesPerPixel)))
            let kept = first == 0 ? peaks : Peaks(sampleRate: peaks.sampleRate, samplesPerPixel: peaks.samplesPerPixel,
                                                  channelCount: peaks.channelCount, pairs: peaks.pairs.map { Array($0[first...]) })
            rolling = (snapshot.version, kept, Double(first * peaks.samplesPerPixel) / Double(peaks.sampleRate))
        }
        return (rolling.peaks, rolling.start, max(1, end - rolling.start))
    }
    private var rolling: (version: Int, peaks: Peaks?, start: Double) = (-1, nil, 0)

    /// The scrubber's download shading, made again only when more of the file has arrived.
    private func downloadShading(_ stream: StreamSnapshot) -> [ClosedRange<Double>] {
        let key = DownloadKey(held: stream.held.count, parts: stream.held.ranges.count, total: stream.total)
        if key != shading.key { shading = (key, stream.downloadedFractions) }
        return shading.fractions
    }

    private struct DownloadKey: Equatable {
        var held: Int64
        var parts: Int
        var total: Int64?
    }
    private var shading: (key: DownloadKey?, fractions: [ClosedRange<Double>]) = (nil, [])
}
