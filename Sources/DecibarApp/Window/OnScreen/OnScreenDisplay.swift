import DecibarCore
import DecibarRender
import Foundation
import Synchronization

/// What a window shows over its picture when asked, and only then: the key list (`?`), the
/// stats (`i`), the controller while the pointer moves, a list to choose from (`/`), and a line
/// saying what a command changed. Each window (live, play, the daemon's) hands it the frame's
/// input first and draws it last. With nothing shown it draws nothing and allocates nothing, so the
/// picture is the same pixels as without it.
final class OnScreenDisplay {
    /// What the window shows and hears now, asked only while something is drawn.
    struct Facts {
        var mode: VisualMode
        /// The preset or shader shown, by name.
        var pictureName: String?
        var source: String
        var backend: String?
        var theme: String
        /// Between the audio's capture and its frame on screen, seconds.
        var delay: Double?
        var player: PlayerFacts?
    }

    struct PlayerFacts {
        var isPlaying: Bool
        var position: Double
        var duration: Double
        var volume: Double
        var rate: Double
        var pitch: Double
    }

    /// What a press on the controller does.
    private enum Action {
        case open(PickerKind)
        case run(ControlCommand)
        /// Shown only (the time).
        case none
    }

    var keys: KeyBindings
    private let text: TextRenderer
    /// The stats' smaller text: a smaller panel over the picture costs less to blend.
    private let small: TextRenderer
    private let rects: RectRenderer
    private let surface: any Surface
    private let controllerVisibility: ControllerVisibility
    private let showsToasts: Bool
    private var settings: Configuration
    private var theme: BarTheme

    private var helpPage: Int?
    private var helpPages = 1
    private var statsUntil = -Double.infinity
    private var statsPinned = false
    private var picker: PickerList?
    private var sources: SourceListing?
    private var toast: (text: String, at: Double)?
    /// A command ran whose change is said once the picture shows it (the next frame).
    private var pendingToast: (command: ControlCommand, frame: Int)?
    private var pointerMovedAt = -Double.infinity
    private var pointerInside = false
    /// A press that began on the controller or the list: its drag and release are theirs too.
    private var pressTaken = false
    private var controllerSegments: [(rect: PixelRect, action: Action)] = []
    private var pickerRowsTop = 0
    private var pickerRect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    private var statistics = FrameStatistics()
    private var cpu: (seconds: Double, at: Double, share: Double?)?
    private var memory: PresetMemory?
    private var serverName: SoundServerName?
    private var statsLines: (lines: [String], at: Double) = ([], -Double.infinity)
    /// Something was drawn last frame: the next must be drawn too, to take it away.
    private var drewLastFrame = false
    private var frameNumber = 0
    /// The character of the key that opened the list, which its text event repeats.
    private var openingText: (text: String, at: Double)?
    /// The mode and theme drawn last, for the lists to start on.
    private var shownMode: VisualMode?
    private var shownTheme: String?

    /// How long `i` shows the stats, a toast stays, and the controller after the pointer stops.
    static let statsSeconds = 4.0
    static let toastSeconds = 1.5
    static let controllerSeconds = 1.0
    static let fadeSeconds = 0.25
    static let statsRefreshSeconds = 0.5

    init(surface: any Surface, shaders: ShaderLibrary, keys: KeyBindings, display: DisplaySettings, recording: Bool) throws(RenderError) {
        self.surface = surface
        self.keys = keys
        settings = display.configuration
        theme = display.barTheme
        let wanted = display.configuration[ConfigSchema.display.controller]
        // A layer is click-through, a recording keeps only the picture.
        controllerVisibility = display.layer != .window || recording ? .never : wanted
        showsToasts = display.configuration[ConfigSchema.display.toasts] && !recording
        let size = OnScreenLayout.textSize(height: surface.drawableSize.height)
        text = try TextRenderer(shaders: shaders, pixelSize: size)
        small = try TextRenderer(shaders: shaders, pixelSize: OnScreenLayout.smallTextSize(textSize: size))
        rects = try RectRenderer(shaders: shaders)
    }

    deinit { sources?.stop() }

    /// The display for a window; nil, with a warning, where text cannot be drawn (no font).
    static func make(for surface: any Surface, keys: KeyBindings, display: DisplaySettings) -> OnScreenDisplay? {
        do {
            return try OnScreenDisplay(surface: surface, shaders: ShaderLibrary(), keys: keys, display: display, recording: display.record != nil)
        } catch {
            writeError("warning: no help, stats or lists on screen: \(error.description)")
            return nil
        }
    }

    /// The theme's colours for the panels and the preset folders, when the settings change.
    func restyle(_ display: DisplaySettings) {
        theme = display.barTheme
        settings = display.configuration
    }

    // MARK: Commands

    /// The commands that are its own (the key list, stats, picker, a favourite); false for any other.
    func perform(_ command: ControlCommand, now: Double, shownPreset: String?) throws(ControlFailure) -> Bool {
        switch command {
        case .keys:
            if let page = helpPage {
                helpPage = page + 1 < helpPages ? page + 1 : nil
            } else {
                helpPage = 0
            }
        case .stats(let toggles):
            statsLines = ([], -.infinity)
            if toggles {
                statsPinned.toggle()
                statsUntil = -.infinity
            } else {
                statsUntil = now + Self.statsSeconds
            }
        case .picker(let request):
            switch request {
            case .open(let kind): open(kind, shownPreset: shownPreset)
            case .next: open(picker?.kind.next ?? .presets, shownPreset: shownPreset)
            case .close: closePicker()
            }
        case .preset(.toggleFavourite):
            guard let shownPreset else { throw ControlFailure(.commandFailed, "preset: \(OnScreenText.noPreset)") }
            toggleFavourite(shownPreset)
        default:
            return false
        }
        return true
    }

    /// A command ran (a key, a click, `ctl`): what it changed is said once the picture shows it.
    func commandRan(_ command: ControlCommand) {
        guard showsToasts else { return }
        switch command {
        case .mode, .preset(.next), .preset(.previous), .preset(.random), .preset(.named), .nextShader, .set, .cycle, .rate, .pitch,
             .normalSpeed, .volume:
            pendingToast = (command, frameNumber)
        default: break
        }
    }

    /// Says `message` (a command's failure, a dropped file) for a moment.
    func say(_ message: String, now: Double) {
        guard showsToasts else { return }
        toast = (message, now)
    }

    var showsToastsEnabled: Bool { showsToasts }

    /// The frame figures over the last second, and the process's CPU share, for `ctl status`.
    func figures(at now: Double) -> (frames: FrameStatistics.Summary?, cpu: Double?) {
        (statistics.summary(at: now), cpuShare(now: now))
    }

    // MARK: Input

    /// Every frame, input or not: its number and how long the one before took.
    func record(_ frame: FrameLoop.Frame) {
        frameNumber = frame.number
        statistics.record(start: frame.now, duration: frame.previousFrameSeconds, isLate: frame.dt > 1.5 / frame.rate && frame.number > 1)
    }

    /// Takes the frame's input that is its own (keys while a list shows, presses on the
    /// controller or the list, the pointer's moves), removing it from the frame; returns the
    /// commands a choice made, for the window to run as a key's.
    func handle(_ frame: inout FrameLoop.Frame, contexts: [KeyContext], shownPreset: String?) -> [ControlCommand] {
        guard !frame.events.isEmpty else { return [] }
        var commands: [ControlCommand] = []
        var kept: [SurfaceEvent] = []
        for event in frame.events {
            // A key that opens a list opens it here, not after the frame's input: what is typed
            // right after it (in the same frame) goes into the list, not to the keys.
            if picker == nil, case .key(let chord) = event, case .picker(let request)? = keys.command(for: chord, in: contexts) {
                _ = try? perform(.picker(request), now: frame.now, shownPreset: shownPreset)
                openingText = (chord.typedName, frame.now)
                continue
            }
            if case .text(let typed) = event, let opening = openingText {
                openingText = nil
                // The opening key's own character (L, /) is not the query's first.
                if typed == opening.text && frame.now - opening.at < 0.5 { continue }
            }
            if take(event, now: frame.now, shownPreset: shownPreset, commands: &commands) { continue }
            kept.append(event)
        }
        frame.events = kept
        return commands
    }

    private func take(_ event: SurfaceEvent, now: Double, shownPreset: String?, commands: inout [ControlCommand]) -> Bool {
        switch event {
        case .mouseMoved:
            pointerMovedAt = now
            pointerInside = true
            // A drag that began on the controller or a list is theirs to the end.
            return pressTaken
        case .pointerLeft:
            pointerInside = false
            return false
        case .mouseDown(let x, let y, _):
            pointerMovedAt = now
            if picker != nil {
                pressTaken = true
                if pickerRect.contains(x: x, y: y) {
                    let row = Int((y - Double(pickerRowsTop)) / Double(lineHeight))
                    if y >= Double(pickerRowsTop), let selected = picker?.selected, picker?.visible.first(where: { $0.row == row })?.entry == selected {
                        // A press on the chosen line again chooses it.
                        commands += choose(shownPreset: shownPreset)
                    } else if y >= Double(pickerRowsTop) {
                        _ = picker?.select(row: row)
                    }
                } else {
                    closePicker()
                }
                return true
            }
            if controllerOpacity(at: now) > 0, let segment = controllerSegments.first(where: { $0.rect.contains(x: x, y: y) }) {
                pressTaken = true
                switch segment.action {
                case .open(let kind): open(kind, shownPreset: shownPreset)
                case .run(let command): commands.append(command)
                case .none: break
                }
                return true
            }
            if controllerOpacity(at: now) > 0, let bar = controllerBar, bar.contains(x: x, y: y) {
                pressTaken = true
                return true
            }
            return false
        case .mouseUp:
            if pressTaken {
                pressTaken = false
                return true
            }
            return false
        case .wheel(_, _, let steps):
            guard picker != nil else { return false }
            picker?.scroll(by: Int((-steps * 3).rounded()))
            return true
        case .text(let typed):
            guard picker != nil else { return false }
            if typed == "*" {
                if picker?.kind == .presets, let name = picker?.selected?.name { toggleFavourite(name) }
            } else {
                picker?.type(typed)
            }
            return true
        case .key(let chord):
            if picker != nil {
                commands += pickerKey(chord, now: now, shownPreset: shownPreset)
                return true
            }
            if helpPage != nil, chord == KeyChord("esc") {
                helpPage = nil
                return true
            }
            return false
        default:
            return false
        }
    }

    private func pickerKey(_ chord: KeyChord, now: Double, shownPreset: String?) -> [ControlCommand] {
        switch (chord.key, chord.modifiers) {
        case ("up", []): picker?.move(by: -1)
        case ("down", []): picker?.move(by: 1)
        case ("pgup", []): picker?.page(by: -1)
        case ("pgdwn", []): picker?.page(by: 1)
        case ("home", []): picker?.moveToStart()
        case ("end", []): picker?.moveToEnd()
        case ("backspace", []): picker?.deleteBackward()
        case ("tab", []): open(picker?.kind.next ?? .presets, shownPreset: shownPreset)
        case ("tab", .shift):
            let kinds = PickerKind.allCases
            let index = kinds.firstIndex(of: picker?.kind ?? .presets) ?? 0
            open(kinds[(index + kinds.count - 1) % kinds.count], shownPreset: shownPreset)
        case ("esc", []): closePicker()
        case ("enter", []), ("kpenter", []): return choose(shownPreset: shownPreset)
        case ("c", .ctrl):
            guard let name = picker?.selected?.name else { break }
            toast = (surface.copyToClipboard(name) ? OnScreenText.copiedToast(name) : OnScreenText.noClipboard, now)
        case ("u", .ctrl): picker?.setQuery("")
        default: break
        }
        return []
    }

    // MARK: Pickers

    private func open(_ kind: PickerKind, shownPreset: String?) {
        if kind != .sources {
            sources?.stop()
            sources = nil
        }
        var list: PickerList
        switch kind {
        case .presets:
            let memory = presetMemory()
            let entries = Self.presetCatalog(settings).map {
                PickerList.Entry(name: $0.name, value: $0.path, isMarked: memory.isFavourite($0.name))
            }
            list = PickerList(kind: kind, entries: entries, selectingName: shownPreset, fold: OnScreenText.fold)
        case .modes:
            list = PickerList(kind: kind, entries: VisualMode.allCases.map { PickerList.Entry(name: $0.rawValue, value: $0.rawValue) },
                              selectingName: shownMode?.rawValue, fold: OnScreenText.fold)
        case .themes:
            list = PickerList(kind: kind, entries: BarTheme.presetNames.map { PickerList.Entry(name: $0, value: $0) },
                              selectingName: shownTheme, fold: OnScreenText.fold)
        case .sources:
            if sources == nil { sources = SourceListing() }
            list = PickerList(kind: kind, entries: sources?.entries ?? [], fold: OnScreenText.fold)
        }
        list.rows = picker?.rows ?? 10
        picker = list
    }

    private func closePicker() {
        picker = nil
        sources?.stop()
        sources = nil
    }

    /// The commands choosing the selected line runs; the list closes.
    private func choose(shownPreset: String?) -> [ControlCommand] {
        guard let picker, let entry = picker.selected else { return [] }
        closePicker()
        if picker.kind == .presets {
            var memory = presetMemory()
            memory.chose(entry.name)
            remember(memory)
        }
        return picker.kind.commands(choosing: entry.value)
    }

    private func presetMemory() -> PresetMemory {
        if let memory { return memory }
        let loaded = PresetMemoryStore.load()
        memory = loaded
        return loaded
    }

    private func remember(_ changed: PresetMemory) {
        memory = changed
        if let problem = PresetMemoryStore.save(changed) { writeError("warning: favourites not kept: \(problem)") }
    }

    private func toggleFavourite(_ name: String) {
        var changed = presetMemory()
        let marked = changed.toggleFavourite(name)
        remember(changed)
        picker?.setMarked(marked, name: name)
        if showsToasts { toast = (OnScreenText.favouriteToast(name, marked: marked), MonotonicClock.now()) }
    }

    /// Every preset there is to choose from, found once a process (a walk of thousands of files).
    private static func presetCatalog(_ settings: Configuration) -> [(name: String, path: String)] {
        let folders = settings[MilkdropSettings.rows.directories]
        if let cached = catalogCache.withLock({ $0 }), cached.folders == folders { return cached.presets }
        let presets = PresetLibrary.catalog(settings)
        catalogCache.withLock { $0 = (folders, presets) }
        return presets
    }

    private static let catalogCache = Mutex<(folders: [String], presets: [(name: String, path: String)])?>(nil)

    // MARK: Drawing

    private var lineHeight: Int { OnScreenLayout.lineHeight(textSize: text.pixelSize) }
    private var margin: Int { text.pixelSize }

    private var controllerBar: PixelRect? {
        let (width, height) = surface.drawableSize
        let barHeight = OnScreenLayout.controllerHeight(textSize: text.pixelSize)
        return PixelRect(x: 0, y: height - barHeight, width: width, height: barHeight)
    }

    private func controllerOpacity(at now: Double) -> Float {
        switch controllerVisibility {
        case .never: return 0
        case .always: return 1
        case .auto:
            guard pointerInside || now - pointerMovedAt < Self.controllerSeconds else { return 0 }
            return Self.fading(age: now - pointerMovedAt, shown: Self.controllerSeconds)
        }
    }

    /// 1 for `shown` seconds, then down to 0 over the fade.
    private static func fading(age: Double, shown: Double) -> Float {
        Float(max(0, min(1, 1 - (age - shown) / fadeSeconds)))
    }

    /// Whether anything shows (or has just gone): the frame must be drawn.
    func needsDrawing(at now: Double) -> Bool {
        drewLastFrame || isShowing(at: now) || pendingToast != nil
    }

    private func isShowing(at now: Double) -> Bool {
        helpPage != nil || statsPinned || now < statsUntil || picker != nil || controllerOpacity(at: now) > 0
            || toast.map { now - $0.at < Self.toastSeconds + Self.fadeSeconds } == true
    }

    /// Draws what shows, over the picture.
    func draw(width: Int, height: Int, now: Double, facts: () -> Facts) {
        if let pending = pendingToast, frameNumber > pending.frame {
            pendingToast = nil
            if let said = Self.toastText(for: pending.command, facts: facts()) { toast = (said, now) }
        }
        guard isShowing(at: now) else {
            if drewLastFrame {
                text.endFrame()
                small.endFrame()
            }
            drewLastFrame = false
            return
        }
        drewLastFrame = true
        let facts = facts()
        (shownMode, shownTheme) = (facts.mode, facts.theme)
        if statsPinned || now < statsUntil { drawStats(facts, width: width, now: now) }
        let controller = controllerOpacity(at: now)
        if controller > 0 { drawController(facts, width: width, height: height, opacity: controller) } else { controllerSegments = [] }
        if let toast {
            let opacity = Self.fading(age: now - toast.at, shown: Self.toastSeconds)
            if opacity > 0 { drawToast(toast.text, width: width, height: height, opacity: opacity) } else { self.toast = nil }
        }
        if let page = helpPage { drawHelp(facts, page: page, width: width, height: height) }
        if picker != nil { drawPicker(width: width, height: height) }
        text.endFrame()
        small.endFrame()
    }

    private static func toastText(for command: ControlCommand, facts: Facts) -> String? {
        switch command {
        case .mode: return OnScreenText.modeToast(facts.mode)
        case .preset, .nextShader:
            guard let name = facts.pictureName else { return nil }
            return facts.mode == .milkdrop ? OnScreenText.presetToast(name) : OnScreenText.shaderToast(name)
        case .set(let key, _), .cycle(let key):
            let path = (try? ConfigSchema.key(named: key))?.path
            switch path {
            case ConfigSchema.display.theme.key.path: return OnScreenText.themeToast(facts.theme)
            case ConfigSchema.display.mode.key.path: return OnScreenText.modeToast(facts.mode)
            case ConfigSchema.audio.source.key.path, ConfigSchema.audio.apps.key.path: return OnScreenText.sourceToast(facts.source)
            case ConfigSchema.player.rate.key.path, ConfigSchema.player.pitch.key.path:
                return facts.player.map { OnScreenText.rateToast($0.rate, pitch: $0.pitch) }
            case ConfigSchema.player.volume.key.path: return facts.player.map { OnScreenText.volumeToast($0.volume) }
            default: return nil
            }
        case .rate, .pitch, .normalSpeed: return facts.player.map { OnScreenText.rateToast($0.rate, pitch: $0.pitch) }
        case .volume: return facts.player.map { OnScreenText.volumeToast($0.volume) }
        default: return nil
        }
    }

    private var ink: Color { Color(red: 0.95, green: 0.96, blue: 0.98, alpha: 1) }
    private var dim: Color { Color(red: 0.72, green: 0.75, blue: 0.82, alpha: 1) }
    private func panel(_ opacity: Float = 1) -> Color { theme.background.withAlpha(0.86 * opacity) }
    /// The opaque panels' colour: the theme's background, a little lighter so the panel shows on it.
    private var solidPanel: Color { Self.mixed(theme.background, Color(red: 1, green: 1, blue: 1), 0.07) }

    private static func mixed(_ from: Color, _ to: Color, _ share: Float) -> Color {
        Color(red: from.red + (to.red - from.red) * share, green: from.green + (to.green - from.green) * share,
              blue: from.blue + (to.blue - from.blue) * share, alpha: 1)
    }
    private var accent: Color { theme.tip }

    private func line(_ string: String, x: Int, y: Int, color: Color, width: Int, height: Int, limit: Int? = nil) {
        let shown = limit.map { StatusOverlay.fitting(string, width: $0, with: text) } ?? string
        text.draw(shown, x: x, y: y, color: color, canvasWidth: width, canvasHeight: height)
    }

    private func drawStats(_ facts: Facts, width: Int, now: Double) {
        let height = surface.drawableSize.height
        var facts = facts
        if facts.backend == OnScreenText.libpulse {
            if serverName == nil { serverName = SoundServerName() }
            if let server = serverName?.value { facts.backend = OnScreenText.libpulse + " on " + server }
        }
        // The figures change every frame: said anew twice a second (as mpv's stats are), so a
        // frame draws labels already made instead of making new ones.
        if now - statsLines.at >= Self.statsRefreshSeconds || statsLines.lines.isEmpty {
            var lines = [statistics.summary(at: now).map(OnScreenText.fps) ?? OnScreenText.fpsWaiting, OnScreenText.picture(facts),
                         OnScreenText.source(facts)]
            if let delay = facts.delay { lines.append(OnScreenText.delay(delay)) }
            if let share = cpuShare(now: now) { lines.append(OnScreenText.cpu(share)) }
            statsLines = (lines, now)
        }
        let lines = statsLines.lines
        let (pad, step) = (small.pixelSize / 2, OnScreenLayout.lineHeight(textSize: small.pixelSize) * 5 / 6)
        let limit = width - 4 * margin
        let boxWidth = min(limit, lines.map { small.size(of: $0).width }.max() ?? 0) + 2 * pad
        // Opaque, written without blending: the stats stay up while a person watches the figures,
        // so they should cost as little as they can (a software renderer blends slowly).
        rects.draw([(PixelRect(x: margin, y: margin, width: boxWidth, height: lines.count * step + pad), solidPanel)],
                   canvasWidth: width, canvasHeight: height, blends: false)
        for (index, string) in lines.enumerated() {
            small.draw(StatusOverlay.fitting(string, width: limit, with: small), x: margin + pad, y: margin + pad / 2 + index * step,
                       color: index == 0 ? ink : dim, canvasWidth: width, canvasHeight: height, over: solidPanel)
        }
    }

    /// The process's share of one core over the last half second or so.
    private func cpuShare(now: Double) -> Double? {
        let seconds = Posix.processCPUSeconds()
        guard let last = cpu else {
            cpu = (seconds, now, nil)
            return nil
        }
        guard now - last.at >= 0.5 else { return last.share }
        let share = (seconds - last.seconds) / (now - last.at)
        cpu = (seconds, now, share)
        return share
    }

    private func drawToast(_ message: String, width: Int, height: Int, opacity: Float) {
        let limit = width - 6 * margin
        let shown = StatusOverlay.fitting(message, width: limit, with: text)
        let size = text.size(of: shown)
        let x = (width - size.width) / 2
        let y = height / 6
        rects.draw([(PixelRect(x: x - margin, y: y - margin / 2, width: size.width + 2 * margin, height: size.height + margin), panel(opacity))],
                   canvasWidth: width, canvasHeight: height)
        text.draw(shown, x: x, y: y, color: ink.withAlpha(opacity), canvasWidth: width, canvasHeight: height)
    }

    private func drawController(_ facts: Facts, width: Int, height: Int, opacity: Float) {
        guard let bar = controllerBar else { return }
        var items: [(label: String, action: Action)] = [(facts.mode.rawValue, .open(.modes))]
        if let name = facts.pictureName {
            items.append((name, facts.mode == .milkdrop ? .open(.presets) : .run(.nextShader)))
        }
        items.append((facts.source, .open(.sources)))
        items.append((OnScreenText.controllerTheme(facts.theme), .open(.themes)))
        var right: [(label: String, action: Action)] = []
        if let player = facts.player {
            right = [(player.isPlaying ? OnScreenText.playing : OnScreenText.paused, .run(.cyclePause)),
                     (OnScreenText.controllerTime(player.position, player.duration), .none),
                     (OnScreenText.controllerVolume(player.volume), .run(.volume(.by(PlayerVolume.step)))),
                     (OnScreenText.controllerRate(player.rate), .run(.normalSpeed))]
        }
        // Shown whole, the bar is opaque and written without blending (cheaper on a software
        // renderer); while it fades it is blended.
        let solid = opacity >= 1
        let separator = solid ? Self.mixed(solidPanel, dim, 0.5) : dim.withAlpha(0.5 * opacity)
        var shapes: [(PixelRect, Color)] = [(bar, solid ? solidPanel : panel(opacity))]
        var segments: [(rect: PixelRect, action: Action)] = []
        var labels: [(String, Int, Color)] = []
        let gap = margin
        let textY = bar.y + (bar.height - text.pixelSize * 5 / 4) / 2
        // The right side first: its figures must show whole; the left side's names are cut to fit.
        var rightX = width - gap
        for item in right.reversed() {
            let itemWidth = text.size(of: item.label).width
            rightX -= itemWidth
            segments.append((PixelRect(x: rightX - gap / 2, y: bar.y, width: itemWidth + gap, height: bar.height), item.action))
            labels.append((item.label, rightX, ink))
            rightX -= gap * 2
        }
        var x = gap
        let room = max(0, rightX - gap) - x
        let share = max(text.pixelSize * 3, room / max(1, items.count) - gap)
        for (index, item) in items.enumerated() {
            let shown = StatusOverlay.fitting(item.label, width: share, with: text)
            let itemWidth = text.size(of: shown).width
            guard x + itemWidth <= rightX else { break }
            segments.append((PixelRect(x: x - gap / 2, y: bar.y, width: itemWidth + gap, height: bar.height), item.action))
            labels.append((shown, x, index == 0 ? accent : ink))
            x += itemWidth + gap * 2
            if index < items.count - 1 {
                shapes.append((PixelRect(x: x - gap, y: bar.y + bar.height / 4, width: 1, height: bar.height / 2), separator))
            }
        }
        rects.draw(shapes, canvasWidth: width, canvasHeight: height, blends: !solid)
        for (label, labelX, color) in labels {
            text.draw(label, x: labelX, y: textY, color: color.withAlpha(color.alpha * opacity), canvasWidth: width, canvasHeight: height,
                      over: solid ? solidPanel : nil)
        }
        controllerSegments = segments
    }

    private func drawHelp(_ facts: Facts, page: Int, width: Int, height: Int) {
        let contexts = KeyBindings.contexts(mode: facts.mode, player: facts.player != nil)
        let sheet = HelpSheet(keys: keys, contexts: contexts)
        let rowsPerColumn = max(4, (height - 5 * lineHeight - 2 * margin) / lineHeight)
        let columnWidth = sheet.columnWidth(with: text, gap: margin)
        let columnsPerPage = max(1, (width - 2 * margin) / (columnWidth + 2 * margin))
        let columns = sheet.columns(rows: rowsPerColumn)
        helpPages = max(1, (columns.count + columnsPerPage - 1) / columnsPerPage)
        let page = min(page, helpPages - 1)
        let shown = Array(columns.dropFirst(page * columnsPerPage).prefix(columnsPerPage))
        let tallest = shown.map(\.count).max() ?? 0
        let boxWidth = min(width - 2 * margin, shown.count * (columnWidth + 2 * margin))
        let boxHeight = min(height - 2 * margin, (tallest + 3) * lineHeight + margin)
        let left = (width - boxWidth) / 2, top = (height - boxHeight) / 2
        rects.draw([(PixelRect(x: left, y: top, width: boxWidth, height: boxHeight), panel())], canvasWidth: width, canvasHeight: height)
        let title = helpPages > 1 ? OnScreenText.helpTitle + "   " + OnScreenText.helpPage(page, of: helpPages) : OnScreenText.helpTitle
        line(title, x: left + margin, y: top + margin / 2, color: accent, width: width, height: height, limit: boxWidth - 2 * margin)
        for (index, column) in shown.enumerated() {
            let x = left + margin + index * (columnWidth + 2 * margin)
            for (row, entry) in column.enumerated() {
                let y = top + margin / 2 + (row + 1) * lineHeight + lineHeight / 2
                switch entry {
                case .heading(let heading): line(heading, x: x, y: y, color: accent, width: width, height: height, limit: columnWidth)
                case .binding(let chord, let command):
                    line(chord, x: x, y: y, color: ink, width: width, height: height)
                    line(command, x: x + sheet.chordWidth(with: text) + margin, y: y, color: dim, width: width, height: height,
                         limit: columnWidth - sheet.chordWidth(with: text) - margin)
                }
            }
        }
        line(OnScreenText.helpFooter, x: left + margin, y: top + boxHeight - lineHeight - margin / 4, color: dim, width: width, height: height,
             limit: boxWidth - 2 * margin)
    }

    private func drawPicker(width: Int, height: Int) {
        if picker?.kind == .sources, let entries = sources?.entries { picker?.replaceEntries(entries) }
        guard var list = picker else { return }
        let boxWidth = OnScreenLayout.pickerWidth(width: width, textSize: text.pixelSize)
        let boxHeight = height - 4 * margin
        let left = (width - boxWidth) / 2, top = 2 * margin
        let rows = max(1, (boxHeight - 4 * lineHeight - margin) / lineHeight)
        if list.rows != rows { list.rows = rows }
        picker = list
        pickerRect = PixelRect(x: left, y: top, width: boxWidth, height: boxHeight)
        pickerRowsTop = top + margin / 2 + 2 * lineHeight
        var shapes: [(PixelRect, Color)] = [(pickerRect, panel())]
        if let selected = list.visible.first(where: \.isSelected) {
            shapes.append((PixelRect(x: left + margin / 2, y: pickerRowsTop + selected.row * lineHeight, width: boxWidth - margin, height: lineHeight),
                           accent.withAlpha(0.45)))
        }
        rects.draw(shapes, canvasWidth: width, canvasHeight: height)
        let limit = boxWidth - 2 * margin
        line(OnScreenText.pickerTitle(list.kind, count: list.shown.count, total: list.entries.count), x: left + margin, y: top + margin / 2,
             color: accent, width: width, height: height, limit: limit)
        line(list.query.isEmpty ? OnScreenText.pickerPrompt : "> " + list.query + "_", x: left + margin, y: top + margin / 2 + lineHeight,
             color: list.query.isEmpty ? dim : ink, width: width, height: height, limit: limit)
        let textOffset = (lineHeight - text.pixelSize * 5 / 4) / 2
        for shown in list.visible {
            let name = (shown.entry.isMarked ? OnScreenText.favouriteMark : "") + shown.entry.name
            line(name, x: left + margin, y: pickerRowsTop + shown.row * lineHeight + textOffset, color: shown.isSelected ? ink : dim,
                 width: width, height: height, limit: limit)
        }
        if list.shown.isEmpty {
            let empty = list.kind == .sources && sources?.entries == nil ? OnScreenText.pickerLoading : OnScreenText.pickerNothing
            line(empty, x: left + margin, y: pickerRowsTop, color: dim, width: width, height: height, limit: limit)
        }
        line(OnScreenText.pickerFooter, x: left + margin, y: top + boxHeight - lineHeight - margin / 4, color: dim, width: width, height: height,
             limit: limit)
    }
}

extension PixelRect {
    func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && px < Double(x + width) && py >= Double(y) && py < Double(y + height)
    }
}
