import DecibarCore
import DecibarRender

/// `--mode milkdrop`: projectM's Milkdrop presets (libprojectM 3.1, opened on first draw), fed the
/// audio heard since the last frame and timed by the frame's clock, so a render's frame k shows
/// the picture at k/fps of the audio whatever the machine's speed. Presets change on the downbeat
/// once their time is up (`PresetSchedule`), or as the user asks: by a cut, or by a transition
/// that draws both for a few beats and blends them (`PresetTransition`).
final class MilkdropVisual: Visual {
    static let mode = VisualModeDescription(
        name: "milkdrop", title: "Milkdrop", summary: "projectM's Milkdrop presets; needs libprojectm3 and projectm-data",
        keys: [("n", "preset next"), ("p", "preset previous"), ("r", "preset random"), ("l", "preset toggle-lock"), ("shift+8", "preset toggle-favourite")],
        settings: MilkdropSettings.rows,
        // libprojectM 3.1 keeps its worker's state in globals: two engines in one process hang on exit.
        oneOutputAtATime: "libprojectM runs one engine per process")

    private let tools: VisualTools
    private var playlist: PresetPlaylist
    private var schedule: PresetSchedule
    private let seed: UInt32
    fileprivate let textures: TextureSearchPath
    private var renderer: MilkdropRenderer?
    /// The preset the renderer shows, and whether the user holds it.
    private var shown: String?
    /// The preset coming in while `transition` blends it with `shown`.
    private var incoming: String?
    private var transition: PresetTransition?
    /// How far `transition` has gone by the last frame (nil: over, to be finished when drawing).
    private var blendProgress: Double?
    private let transitionStyle: PresetTransitionStyle
    private let transitionBeats: Int
    private var transitionCount = 0
    /// The beat a change the schedule asked for is on (its transition starts there).
    private var changeBeat: Double?
    private var lastBeat = BeatPulse()
    /// The presets shown and when, kept in a render for its account of the video.
    private(set) var changes: [PictureChange] = []
    private(set) var isLocked = false {
        didSet { if isLocked != oldValue { refreshTitleSuffix() } }
    }
    /// What was heard since the last draw, read from the feed when drawing.
    private var feed: AudioFeed?
    private var unheardFrames = 0
    private var left = [Float](repeating: 0, count: MilkdropVisual.audioLimit)
    private var right = [Float](repeating: 0, count: MilkdropVisual.audioLimit)
    private var lastFrameTime = 0.0
    /// The library could not start or draw (said once); nothing more is tried.
    private var failedToStart = false
    /// The presets whose missing textures were already said.
    fileprivate var warnedAboutTextures: Set<String> = []
    /// The fraction of the canvas the library draws at: fixed on the first frame, or following
    /// the preset's cost (`dynamicScale`, timed by `timer`) in a window with `milkdrop_scale auto`.
    private var scale = 1.0
    /// The scale the last frame was drawn at (a blend keeps it).
    private var drawnScale = 1.0
    /// The timer's last result timed a blend (not what one preset costs).
    private var timedBlend = false
    /// The last frame drawn blended, for the account of a render.
    private var lastBlendedTime = 0.0
    private var dynamicScale: DynamicScale?
    private var timer: DrawTimer?

    /// libprojectM keeps 2048 samples a channel; more in one frame would only be overwritten.
    static let audioLimit = 2048
    /// The mesh the per-vertex equations run on (libprojectM's default).
    static let mesh = (x: 32, y: 24)

    init(tools: VisualTools) throws(RenderError) {
        self.tools = tools
        let settings = tools.display.configuration
        let rows = MilkdropSettings.rows
        _ = try MilkdropRenderer.load()
        // A render's frames are the same every time only if what libprojectM reads unwritten is.
        if tools.deterministic { MemoryPolicy.fillAllocations(with: 85) }
        let paths = try PresetLibrary.playlistPaths(settings)
        seed = UInt32(truncatingIfNeeded: settings[rows.seed] ?? (tools.deterministic ? 1 : Int(UInt32.random(in: 0 ... .max))))
        playlist = PresetPlaylist(paths: paths, shuffled: settings[rows.shuffle], seed: UInt64(seed))
        schedule = PresetSchedule(duration: settings[rows.duration])
        transitionStyle = settings[rows.transition]
        transitionBeats = settings[rows.transitionBeats]
        textures = try TextureSearchPath(folders: settings[rows.textureDirectories], dataDirectory: PresetLibrary.dataDirectory)
        if let preset = settings[rows.preset] {
            if PresetLibrary.isPath(preset) {
                if let problem = PresetLibrary.check(preset) { throw RenderError("--preset \(preset) \(problem)") }
                playlist.insert(path: preset)
                _ = playlist.select(named: preset)
            } else if !playlist.select(named: preset) {
                throw RenderError("--preset \(preset): no preset of that name in the playlist")
            }
        }
    }

    var needs: VisualNeeds { [.beats] }
    var isAtRest: Bool { false }
    var meanValue: Float { 0 }

    /// The name of the preset shown (nil before the first is).
    private(set) var presetName: String? {
        didSet { if presetName != oldValue { refreshTitleSuffix() } }
    }

    func update(_ frame: VisualFrame) {
        feed = frame.feed
        unheardFrames = min(Self.audioLimit, unheardFrames + frame.reading.frameCount)
        lastFrameTime = frame.now
        lastBeat = frame.beat
        // A change that comes due during a transition waits for a later downbeat.
        if !isLocked, schedule.isDue(now: frame.now, beat: frame.beat), transition == nil {
            playlist.next()
            schedule.restart(at: frame.now)
            changeBeat = frame.beat.lastBeat.flatMap { frame.now - $0 < 0.25 ? $0 : nil }
        }
        if var transition {
            blendProgress = transition.progress(now: frame.now, beat: frame.beat)
            self.transition = transition
        }
    }

    /// `preset`: the only command of its own.
    func perform(_ command: ControlCommand) throws(ControlFailure) -> Bool {
        guard case .preset(let request) = command else { return false }
        let move: PresetMove
        switch request {
        case .next: move = .next
        case .previous: move = .previous
        case .random: move = .random
        case .lock: move = .lock
        case .unlock: move = .unlock
        case .toggleLock: move = .toggleLock
        case .named(let name): move = .named(name)
        // Answered by whoever asks (the daemon's status), and kept by the window's display.
        case .shown: return true
        case .toggleFavourite: throw ControlFailure(.commandFailed, "preset: favourites are marked in a window")
        }
        if let problem = perform(move) { throw ControlFailure(.commandFailed, "preset: \(problem)") }
        return true
    }

    /// The last preset skipped, for a line over the picture.
    private var notice: String?

    func takeNotice() -> String? {
        defer { notice = nil }
        return notice
    }

    /// What it shows by name: the preset.
    var shownName: String? { presetName }

    /// The preset shown, and whether it is held: made again only when either changes, so a
    /// frame allocates nothing.
    private(set) var titleSuffix = ""

    private func refreshTitleSuffix() {
        titleSuffix = presetName.map { " — " + $0 + (isLocked ? " (locked)" : "") } ?? ""
    }

    /// The preset shown, once one is (the setting says only where the playlist started).
    func currentValue(of key: ConfigKey) -> JSONValue? {
        key == MilkdropSettings.rows.preset.key ? presetName.map(JSONValue.string) : nil
    }

    /// The user's moves: the next, previous or a random preset, lock, or one by name or path.
    func perform(_ move: PresetMove) -> String? {
        switch move {
        case .next: playlist.next()
        case .previous: playlist.previous()
        case .random: playlist.jumpToRandom()
        case .lock: isLocked = true
        case .unlock: isLocked = false
        case .toggleLock: isLocked.toggle()
        case .named(let name):
            if PresetLibrary.isPath(name) {
                if let problem = PresetLibrary.check(name) { return "\(name) \(problem)" }
                playlist.insert(path: name)
            }
            guard playlist.select(named: name) else { return "no preset \(name) in the playlist" }
        }
        schedule.restart(at: lastFrameTime)
        return nil
    }

    func draw(_ canvas: VisualCanvas) {
        guard !failedToStart else { return }
        if renderer == nil {
            switch tools.display.configuration[MilkdropSettings.rows.scale] {
            case .fixed(let fixed): scale = fixed
            // A render draws every pixel wherever it runs (its frames are the same everywhere).
            case .automatic where tools.deterministic || canvas.displayPeriod == nil: scale = 1
            case .automatic:
                // Most presets need less than every pixel on a software renderer: start where they do.
                dynamicScale = DynamicScale(start: GLRenderer.isSoftware ? 0.5 : 1)
                timer = DrawTimer(softwareRenderer: GLRenderer.isSoftware, clock: MonotonicClock.now)
                scale = dynamicScale?.scale ?? 1
            }
            drawnScale = scale
            do {
                let drawn = MilkdropRenderer.drawnSize(width: canvas.width, height: canvas.height, scale: scale)
                renderer = try MilkdropRenderer(shaders: tools.shaders, width: drawn.width, height: drawn.height, mesh: Self.mesh,
                                                fps: 60, dataDirectory: PresetLibrary.dataDirectory, textureDirectory: textures.path,
                                                seed: seed, clock: canvas.time, blendsPresets: transitionStyle != .cut)
            } catch {
                failedToStart = true
                writeError("\(error.description)")
                return
            }
        }
        guard let renderer else { return }
        showWantedPreset(on: renderer, at: canvas.time)
        if transition != nil, blendProgress == nil { finishTransition(on: renderer) }
        let blend = transition.map { MilkdropRenderer.Blend(style: $0.style, progress: blendProgress ?? 0, variation: $0.variation) }
        if blend != nil { lastBlendedTime = canvas.time }
        if let feed, unheardFrames > 0 {
            let count = unheardFrames
            left.withUnsafeMutableBufferPointer { buffer in
                feed.copyLatest(channel: 0, into: UnsafeMutableBufferPointer(rebasing: buffer[0 ..< count]))
            }
            right.withUnsafeMutableBufferPointer { buffer in
                feed.copyLatest(channel: 1, into: UnsafeMutableBufferPointer(rebasing: buffer[0 ..< count]))
            }
            left.withUnsafeBufferPointer { l in
                right.withUnsafeBufferPointer { r in
                    renderer.addAudio(left: UnsafeBufferPointer(rebasing: l[0 ..< count]), right: UnsafeBufferPointer(rebasing: r[0 ..< count]))
                }
            }
            unheardFrames = 0
        }
        // A blend draws two presets for a moment: the scale follows what one costs (resizing
        // during it would start both presets' pictures again).
        if let timer, let period = canvas.displayPeriod, let drawing = timer.takeResult(), blend == nil, !timedBlend {
            dynamicScale?.observe(drawing: drawing, period: period, now: canvas.time)
            scale = dynamicScale?.scale ?? scale
        }
        timedBlend = blend != nil
        do {
            try renderer.draw(clock: canvas.time, in: PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height),
                              scale: blend == nil ? scale : drawnScale, canvasWidth: canvas.width, canvasHeight: canvas.windowHeight,
                              timer: timer, blend: blend)
            drawnScale = blend == nil ? scale : drawnScale
        } catch {
            failedToStart = true
            writeError("\(error.description)")
        }
    }

    /// Loads the playlist's preset if it is not the one shown or coming in: the first by itself,
    /// later ones by the transition chosen (a transition under way ends first). One that cannot
    /// be shown is said once, dropped from the playlist, and the next one tried.
    private func showWantedPreset(on renderer: MilkdropRenderer, at time: Double) {
        var tries = 0
        while let wanted = playlist.current, wanted != (incoming ?? shown), tries < 16 {
            tries += 1
            if transition != nil { finishTransition(on: renderer) }
            let style = shown == nil ? .cut : transitionStyle.resolved(seed: UInt64(seed), index: transitionCount)
            if let problem = PresetLibrary.check(wanted) ?? load(wanted, on: renderer, incoming: style != .cut) {
                writeError("Milkdrop preset \(PresetPlaylist.name(of: wanted)) skipped: \(problem)")
                notice = "\(PresetPlaylist.name(of: wanted)) skipped: \(problem)"
                playlist.removeCurrent()
                continue
            }
            if style == .cut {
                shown = wanted
                // Another preset costs otherwise: its scale is found from its own drawings.
                dynamicScale?.restart()
            } else {
                incoming = wanted
                var started = PresetTransition(style: style, start: changeBeat ?? lastFrameTime, beats: transitionBeats, bpm: lastBeat.bpm,
                                               lastBeat: lastBeat.lastBeat, variationSeed: UInt64(seed) &+ UInt64(transitionCount))
                blendProgress = started.progress(now: lastFrameTime, beat: lastBeat)
                transition = started
                transitionCount += 1
            }
            changeBeat = nil
            presetName = PresetPlaylist.name(of: wanted)
            if tools.deterministic {
                changes.append(PictureChange(name: PresetPlaylist.name(of: wanted), start: time, transition: changes.isEmpty ? nil : style))
            }
        }
    }

    /// The incoming preset is the one shown from now on, drawn alone.
    private func finishTransition(on renderer: MilkdropRenderer) {
        guard let incoming else { return }
        renderer.finishTransition()
        shown = incoming
        self.incoming = nil
        transition = nil
        blendProgress = nil
        dynamicScale?.restart()
        if tools.deterministic, !changes.isEmpty { changes[changes.count - 1].blendEnd = lastBlendedTime }
    }
}

extension MilkdropVisual {
    /// Loads a preset, giving each texture it names that is installed nowhere a stand-in and
    /// loading it again (said once a preset: the playlist comes back to it). Nil, or why not.
    fileprivate func load(_ path: String, on renderer: MilkdropRenderer, incoming: Bool) -> String? {
        var loaded = renderer.loadPreset(path, incoming: incoming)
        guard !loaded.missingTextures.isEmpty else { return loaded.problem }
        let standIns = textures.makeStandIns(for: loaded.missingTextures)
        if !standIns.isEmpty { loaded = renderer.loadPreset(path, incoming: incoming) }
        if loaded.problem == nil, warnedAboutTextures.insert(path).inserted {
            let placed = standIns.map { "\($0.name) (\($0.standIn) in its place)" }
            let bare = loaded.missingTextures.filter { name in !standIns.contains { $0.name == name } }
            writeError("Milkdrop preset \(PresetPlaylist.name(of: path)) names " + (placed + bare).joined(separator: ", ")
                       + ": installed nowhere (--texture-dir adds texture folders)")
        }
        return loaded.problem
    }
}

/// What the user can ask of the Milkdrop playlist (keys and `ctl preset`).
enum PresetMove: Equatable {
    case next, previous, random, lock, unlock, toggleLock
    case named(String)
}

extension VisualMode {
    /// The mode that has presets: a preset chosen while another shows switches to it.
    static var milkdrop: VisualMode { VisualMode(registered: MilkdropVisual.mode.name) }
}
