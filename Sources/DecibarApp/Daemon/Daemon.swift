import DecibarAudio
import DecibarCore
import DecibarRender
import DecibarSystem
import Foundation
import Logging

/// `decibar daemon`: one long-running process that owns one tap, the player and the window, and
/// serves clients on the control socket. Everything it owns lives on the process main thread
/// (SDL wants the thread that opened the window); the socket's event loop, the signal watcher and
/// the config watcher post to its inbox.
///
/// With no window shown and no subscriber the tap is closed and the main thread sleeps on the inbox:
/// nothing listens to the user's audio and no CPU is used.
public final class Daemon {
    let settings: DaemonSettings
    var log: Logger
    let inbox = DaemonInbox()
    let hub = SubscriberHub()
    /// Tells beat subscribers of beats when they are heard, the player's or the tap's.
    lazy var announcer = BeatAnnouncer(hub: hub)
    var server: ControlServer?
    let socketPath: String

    /// The file's values, and what is in force (the file, the command line, then `set`s).
    var fileConfiguration = Configuration()
    var runtime = Configuration()
    var configuration = Configuration()
    var display = DisplaySettings()
    /// What each key does in its window: the defaults with the config's `[keys]` over them.
    var keys = KeyBindings()
    /// `daemon.tap = "always"`, read once per change: the frame loop asks every frame.
    var keepsTapOpen = false

    /// Made on the first `show`: a daemon without a display still serves levels and plays.
    var window: Window?
    var isShown = false
    var visualizer: Visualizer?
    var liveText: TextRenderer?
    /// Smaller text for notices in the corner.
    var noticeText: TextRenderer?
    /// Help, stats, the controller and the lists over the window's picture.
    var onScreen: OnScreenDisplay?
    var liveScreen: LiveScreen?
    var playerScreen: PlayerScreen?
    /// The look the outputs draw with (theme, bars, mode), to restart them when it changes.
    var outputsDisplay: [String: JSONValue]?

    var tap: (any LiveTap)?
    /// The tap's delivery size (nil: 256 frames, for the window).
    var tapFragment: Double?
    var pump: FeedPump?
    let feed = AudioFeed()

    var session: PlaySession?
    /// What the player is made of (steered ones in the tests).
    var playerParts: any PlayerParts = SystemPlayerParts()
    /// Where the analysis is also sent (`outputs.send`): the pumps reach it through the relay.
    let outputs = OutputRelay()
    /// The player on the session bus; nil without one, and then why.
    var media: MediaBridge?
    var mediaProblem: String?
    /// Screenshots asked for, saved after the next frame is drawn.
    var pendingScreenshots: [(path: String, id: Int64, client: ControlClientHandle)] = []
    var stopping: String?
    var lastStatusKey: StatusKey?
    /// A config problem to show in the status until the next good reload, and on screen for a while.
    var configProblem: String?
    var configNotice: (text: String, until: Double)?
    /// Frames a second the window shows now, and the display's rate (nil while hidden).
    var frameRates: (shown: Double, display: Double)?

    /// How long a config problem stays on screen.
    static let noticeSeconds = 8.0

    public init(settings: DaemonSettings) throws(CommandFailure) {
        VisualCatalog.prepare()
        self.settings = settings
        if let path = settings.socketPath { socketPath = path } else { socketPath = try ControlSocketPath.defaultPath() }
        var logger = Logger(label: "decibar")
        logger.logLevel = Logger.Level(rawValue: settings.logLevel ?? "info") ?? .info
        log = logger
    }

    /// Runs until `ctl quit` or a signal. Throws (one line) when it cannot start: another daemon
    /// runs, the socket cannot be made, the config is broken.
    public func run() throws {
        MemoryPolicy.applyForLongRuns()
        SignalWatcher.blockSignals()
        try loadConfiguration()
        if settings.logLevel == nil, let level = Logger.Level(rawValue: configuration[ConfigSchema.daemon.logLevel]) {
            log.logLevel = level
        }
        let server = try ControlServer.start(path: socketPath, handler: InboxForwarder(inbox: inbox), log: log)
        self.server = server
        SignalWatcher.start(posting: inbox)
        let watcher = ConfigWatcher(path: settings.configPath) { [inbox] in inbox.post(.reloadConfig(reason: "the file changed")) }
        if watcher == nil { log.warning("cannot watch \(settings.configPath) for changes; SIGHUP or ctl reload_config reload it") }
        log.info("listening on \(socketPath) (pid \(getpid()))")
        let inbox = self.inbox
        media = MediaBridge.start(post: { request in inbox.post(.media(request)) }, unavailable: { [self] reason in
            mediaProblem = reason
            log.info("\(reason)")
        })
        if let media { log.info("media keys and playerctl reach it as \(media.busName)") }
        ServiceNotifier.ready(status: "listening on \(socketPath)")
        // FFmpeg's libraries load on a spare thread now, not in the first track's open (where
        // they held a stream's first sound back by 45-240 ms).
        Thread.detachNewThread { AudioFileDecoder.loadLibraries() }

        if configuration[ConfigSchema.daemon.window] == "shown" {
            if let failure = show() { log.error("\(failure.message)") }
        }
        updateTap()
        defer { shutDown() }
        while stopping == nil {
            if isShown, let window {
                try runWindow(window)
                // (A window made again for new layer settings is run next.)
                if stopping == nil && isShown && self.window === window {
                    // Closed with its close button, q or Esc: hidden, not stopped.
                    hide()
                }
            } else {
                // Asleep until told something; with a player, a few times a second to move on
                // at the end of a track.
                inbox.wait(timeout: session?.player == nil ? nil : 0.25)
                handleInbox()
                tickHiddenPlayer()
            }
            updateTap()
            updateOutputSource()
            publishStatusIfChanged()
            media?.publish(session)
        }
    }

    private func shutDown() {
        log.info("stopping (\(stopping ?? "error"))")
        ServiceNotifier.stopping()
        hub.publish(ControlMessage.event("shutdown"))
        media?.stop()
        server?.close()
        session?.close()
        outputs.current?.stop()
        outputs.current = nil
        closeTap()
        closeWindow()
    }

    /// Closes the window and what draws in it (their GL objects go with its context).
    func closeWindow() {
        playerScreen = nil
        liveScreen = nil
        visualizer = nil
        liveText = nil
        noticeText = nil
        onScreen = nil
        // Closed now: the frame loop that holds it may still finish a frame.
        window?.close()
        window = nil
    }

    /// A window made again (a desktop layer's settings changed), shown if it was.
    func reopenWindow() -> ControlFailure? {
        guard window != nil else { return nil }
        let wasShown = isShown
        hide()
        closeWindow()
        return wasShown ? show() : nil
    }

    // MARK: Configuration

    /// Reads the config file at start: a broken one stops the daemon (one line).
    func loadConfiguration() throws(CommandFailure) {
        do {
            fileConfiguration = try ConfigFile.load(settings.configPath)
        } catch {
            throw CommandFailure(message: error.summary, status: 2)
        }
        applyConfiguration()
    }

    /// Recomputes what is in force from the layers.
    func applyConfiguration() {
        configuration = fileConfiguration.merging(settings.overrides).merging(runtime)
        keys = KeyBindings(configuration.keys)
        display = DisplaySettings(configuration: configuration)
        onScreen?.keys = keys
        onScreen?.restyle(display)
        display.frameLog = settings.frameLog
        keepsTapOpen = configuration[ConfigSchema.daemon.tap] == "always"
        liveScreen?.avOffset = configuration[ConfigSchema.audio.avOffset] / 1000
        updateOutputs()
    }

    // MARK: Outputs

    /// Starts, replaces or stops the outputs when `outputs.send` (or the look they draw) changed.
    func updateOutputs() {
        let targets = configuration[ConfigSchema.outputs.send]
        let current = outputs.current
        guard targets != (current?.targets ?? []) || (current != nil && outputsDisplay != display.outputLook) else { return }
        current?.stop()
        outputs.current = nil
        outputsDisplay = display.outputLook
        if !targets.isEmpty {
            do {
                let log = self.log
                outputs.current = try OutputHub(targets: targets, display: display, rate: display.fps ?? OutputHub.displayRate,
                                                heardDelay: tapHeardDelay) { log.notice("\($0)") }
                log.info("sending to \(targets.map(\.url).joined(separator: ", "))")
            } catch {
                log.error("cannot send: \(error.message)")
            }
        } else if current != nil {
            log.info("sending to nothing now")
        }
        updateOutputSource()
        // The tap's pump feeds the outputs only if they were there when it opened; a tap for them alone closes.
        if tap != nil { closeTap() }
        updateTap()
    }

    /// How late the tap's audio is heard after its stamps.
    var tapHeardDelay: @Sendable () -> Double {
        let (tap, offset) = (self.tap, configuration[ConfigSchema.audio.avOffset] / 1000)
        return { (tap?.sinkLatency ?? 0) + offset }
    }

    /// The outputs hear the player while a track is open, else the tap.
    func updateOutputSource() {
        guard let hub = outputs.current else { return }
        if let session, session.player != nil {
            hub.use(.player, heardDelay: { 0 })
        } else {
            hub.use(.tap, heardDelay: tapHeardDelay)
        }
    }

    func reloadConfiguration(reason: String) -> ControlFailure? {
        ServiceNotifier.reloading()
        defer { ServiceNotifier.ready(status: "listening on \(socketPath)") }
        do {
            let loaded = try ConfigFile.load(settings.configPath)
            configNotice = nil
            let changed = loaded != fileConfiguration || !runtime.values.isEmpty
            let placed = (display.layer, display.monitor, display.placement)
            fileConfiguration = loaded
            runtime = Configuration()
            configProblem = nil
            applyConfiguration()
            if placed != (display.layer, display.monitor, display.placement) {
                if let failure = reopenWindow() { log.error("cannot open the window: \(failure.message)") }
            } else if changed {
                rebuildVisualizer()
            }
            log.info("config reloaded (\(reason))")
            return nil
        } catch {
            // The previous values stay; say so once.
            if configProblem != error.summary {
                configProblem = error.summary
                writeError("config not reloaded, the previous one stays: \(error.summary)")
                configNotice = ("config not reloaded: \(error.screenSummary)", MonotonicClock.now() + Self.noticeSeconds)
                hub.publish(ControlMessage.event("config-error", ["message": .string(error.summary)]))
                ServiceNotifier.status("config error: \(error.summary)")
            }
            return ControlFailure(.commandFailed, "config not reloaded: \(error.summary)")
        }
    }

    // MARK: Window

    /// Shows the window, opening it the first time. Returns why it cannot.
    func show() -> ControlFailure? {
        if window == nil {
            do {
                let opened = try FrameLoop.openWindow(display: display, hidden: true)
                window = opened
                liveText = LiveScreen.makeText(for: opened)
                noticeText = try? TextRenderer(shaders: ShaderLibrary(), pixelSize: max(11, opened.drawableSize.height / 40))
                onScreen = OnScreenDisplay.make(for: opened, keys: keys, display: display)
                try makeVisualizer(for: opened)
            } catch let failure as CommandFailure {
                window = nil
                return ControlFailure(.commandFailed, failure.message)
            } catch {
                window = nil
                return ControlFailure(.commandFailed, "\(error)")
            }
        }
        window?.show()
        if !isShown {
            isShown = true
            // What waited while hidden is old: start from what is heard now.
            feed.discardWaiting()
            pump?.feedsWindow = true
            log.info("window shown")
        }
        return nil
    }

    func hide() {
        guard isShown else { return }
        window?.hide()
        isShown = false
        pump?.feedsWindow = false
        feed.discardWaiting()
        for pending in pendingScreenshots {
            pending.client.reply(ControlMessage.failure(id: pending.id, ControlFailure(.commandFailed, "the window was hidden before it drew")))
        }
        pendingScreenshots = []
        log.info("window hidden")
    }

    func makeVisualizer(for surface: any Surface) throws {
        let shaders = try ShaderLibrary()
        visualizer = try Visualizer(display: display, shaders: shaders, labelSize: PlayerScreen.labelSize(for: surface),
                                    now: MonotonicClock.now())
        if let session {
            playerScreen = try makePlayerScreen(for: session, surface: surface, shaders: shaders)
        }
    }

    func makePlayerScreen(for session: PlaySession, surface: any Surface, shaders: ShaderLibrary) throws -> PlayerScreen {
        let scrubberSettings = ScrubberSettings(configuration: configuration)
        let renderers = try PlayerScreen.makeRenderers(for: surface, shaders: shaders)
        return PlayerScreen(session: session, scrubber: ScrubberView(options: scrubberSettings, rects: renderers.rects, text: renderers.text, shaders: shaders),
                            pictures: renderers.pictures, captions: renderers.captions,
                            decibels: playerScreen?.decibels ?? scrubberSettings.decibels)
    }

    /// After a change of look: the visualizer is made again (its mode, theme and layout are fixed
    /// when it is made); the player and the tap carry on.
    func rebuildVisualizer() {
        guard let window else { return }
        let mode = visualizer?.mode
        do {
            try makeVisualizer(for: window)
            if let mode, !configuration.isSet(ConfigSchema.display.mode), !runtime.isSet(ConfigSchema.display.mode) { try? visualizer?.show(mode) }
        } catch {
            log.error("cannot redraw with the new settings: \(error)")
        }
    }

    /// The frame loop while the window shows; returns when it is hidden or the daemon stops.
    private func runWindow(_ window: Window) throws {
        try FrameLoop(surface: window, display: display).run { frame in
            handleInbox()
            // Hidden, stopping, or made again (new layer settings): this loop's window is done.
            if stopping != nil || !isShown || self.window !== window {
                frame.closes = true
                frame.skipsDrawing = true
                return
            }
            frameRates = (frame.rate, frame.displayRate)
            updateTap()
            publishStatusIfChanged()
            defer { media?.publish(session) }
            guard let visualizer else { return }
            let notice = configNotice.flatMap { $0.until > frame.now ? $0.text : nil }
            frame.forcesDrawing = !pendingScreenshots.isEmpty || notice != nil || onScreen?.needsDrawing(at: frame.now) == true
            defer {
                if let notice, let noticeText {
                    let (width, height) = window.drawableSize
                    let margin = noticeText.pixelSize / 2
                    noticeText.draw(StatusOverlay.fitting(notice, width: width - 2 * margin, with: noticeText), x: margin, y: margin,
                                    color: Color(red: 1, green: 0.55, blue: 0.45, alpha: 0.95), canvasWidth: width, canvasHeight: height)
                }
                if !pendingScreenshots.isEmpty { saveScreenshots(of: window, drawnAt: frame.shownAt) }
            }
            updateOutputSource()
            runKeys(&frame, visualizer: visualizer)
            if let session, !session.isOver, let playerScreen {
                playerScreen.frame(&frame, surface: window, visualizer: visualizer, recorder: nil, onScreen: onScreen)
                if session.isOver { session.close() }
            } else if let liveScreen {
                liveScreen.frame(&frame, surface: window, visualizer: visualizer, recorder: nil, onScreen: onScreen)
            }
        }
    }

    /// The window's keys run their commands as `ctl` would send them; one that cannot be carried
    /// out says why in the corner for a moment. Closing the window hides it, as q always has.
    private func runKeys(_ frame: inout FrameLoop.Frame, visualizer: Visualizer) {
        onScreen?.record(frame)
        // Most frames have no input: nothing more to do, and nothing allocated.
        guard !frame.events.isEmpty else { return }
        let showsPlayer = session.map { !$0.isOver } == true && playerScreen != nil
        let contexts = KeyBindings.contexts(mode: visualizer.mode, player: showsPlayer)
        var commands = onScreen?.handle(&frame, contexts: contexts, shownPreset: visualizer.shownName) ?? []
        for event in frame.events {
            switch event {
            case .key(let chord):
                if let command = keys.command(for: chord, in: contexts) { commands.append(command) }
            case .dropped(let dropped, let playsNow):
                // The player opens in this window; more join its list (Shift: play now).
                let path = MediaLocation.dropped(dropped)
                let playing = session.map { !$0.isOver } == true
                commands.append(.open(paths: [path], append: playing && !playsNow))
                onScreen?.say((playing && !playsNow ? OnScreenText.queuedToast : OnScreenText.droppedToast)(MediaLocation(path).displayName), now: frame.now)
            default: break
            }
        }
        for command in commands {
            if command == .close {
                frame.closes = true
                continue
            }
            do {
                _ = try execute(command, from: nil)
                onScreen?.commandRan(command)
            } catch {
                if let onScreen, onScreen.showsToastsEnabled {
                    onScreen.say(error.message, now: frame.now)
                } else {
                    configNotice = (error.message, frame.now + Self.keyNoticeSeconds)
                }
            }
        }
    }

    /// How long a key's failure shows in the corner.
    static let keyNoticeSeconds = 3.0

    /// Saves the frame just drawn; the reply says when it shows (CLOCK_MONOTONIC seconds, its
    /// slot) and where the playhead stands then, so a script can tell what the picture should show.
    private func saveScreenshots(of surface: any Surface, drawnAt: Double) {
        var data: [String: JSONValue] = ["drawn_at": .number(drawnAt)]
        if let session, session.hasTrack {
            // The frame shows a moment from now (its slot): the playhead moves on till then.
            let ahead = session.status == .playing ? max(0, drawnAt - MonotonicClock.now()) * session.rateAndPitch.rate : 0
            data["playhead"] = .number(session.playhead + ahead)
        }
        for pending in pendingScreenshots {
            do {
                try FrameLoop.saveScreenshot(of: surface, to: pending.path)
                pending.client.reply(ControlMessage.success(id: pending.id, data: .object(data)))
            } catch {
                let message = (error as? CommandFailure)?.message ?? "\(error)"
                pending.client.reply(ControlMessage.failure(id: pending.id, ControlFailure(.commandFailed, message)))
            }
        }
        pendingScreenshots = []
    }

    // MARK: Tap

    /// Opens, reopens or closes the tap for who needs it: a shown window wants 256-frame
    /// deliveries (low latency), subscribers alone 50 ms ones (far fewer wake-ups).
    func updateTap() {
        defer { updateBeatFinding() }
        let needed = isShown || keepsTapOpen || hub.audioSubscriberCount > 0 || outputs.current != nil
        guard needed else {
            if tap != nil { closeTap(); log.info("tap closed: nothing is looking") }
            return
        }
        // Beat subscribers want beats soon after they sound: 10 ms deliveries, unless the window's 256 frames.
        // Outputs send at the display's pace: 10 ms deliveries keep them on time.
        let fragment = isShown ? nil : hub.hasBeatSubscribers || outputs.current != nil ? LiveLevels.beatFragmentDuration : LiveLevels.fragmentDuration
        if tap != nil && tapFragment == fragment { return }
        closeTap()
        let target = TapTarget(source: configuration[ConfigSchema.audio.source],
                               apps: AppSelection(apps: configuration[ConfigSchema.audio.apps],
                                                  excludedApps: configuration[ConfigSchema.audio.excludeApps]))
        do {
            // For subscribers alone, what standalone `levels` asks for: the fewest wake-ups.
            let sends = outputs.current != nil
            let opened = try LiveTaps.open(backend: configuration[ConfigSchema.audio.backend], target: target, fragmentDuration: fragment,
                                           relaxesInSilence: isShown, measuresSinkLatency: isShown || sends,
                                           priority: RealtimePriority.tap, notice: { [log] in log.notice("\($0)") })
            let (hub, announcer, outputs) = (self.hub, self.announcer, self.outputs)
            let outputBeats = outputs.beatListener(from: .tap)
            let pump = FeedPump(opened.buffers, into: feed, also: { buffer in
                hub.process(buffer, now: MonotonicClock.now())
                outputs.add(buffer, from: .tap)
            }, told: { event in
                announcer.announce(event, from: .tap)
                outputBeats(event)
            })
            pump.findsBeats = wantsBeats
            opened.start()
            pump.feedsWindow = isShown
            tap = opened
            tapFragment = fragment
            self.pump = pump
            liveScreen = LiveScreen(tap: opened, feed: feed, pump: pump, avOffset: configuration[ConfigSchema.audio.avOffset] / 1000,
                                    text: liveText)
            updateOutputSource()
            log.info("tap opened (\(isShown ? "window" : "subscribers"))")
        } catch {
            log.error("cannot open the tap: \(error.description)")
        }
    }

    /// Whether anything needs beats: a beats subscriber, an output marking hits or drawing the
    /// accent, or the shown window's accent or shader. Without one, no beat finding runs (it
    /// costs about 0.2 % of a core) and the status has no tempo.
    var wantsBeats: Bool {
        hub.hasBeatSubscribers || outputs.current?.needsBeats == true || (isShown && visualizer?.usesBeats == true)
    }

    /// Starts or stops beat finding in the tap's and the player's pumps, for `wantsBeats`.
    func updateBeatFinding() {
        let wanted = wantsBeats
        if pump?.findsBeats != wanted { pump?.findsBeats = wanted }
        if let session, session.findsBeats != wanted { session.findsBeats = wanted }
    }

    func closeTap() {
        tap?.stop()
        pump?.cancel()
        tap = nil
        pump = nil
        liveScreen = nil
    }

    // MARK: Player while hidden

    private func tickHiddenPlayer() {
        guard let session else { return }
        session.heard.discardWaiting()
        session.tick()
        if session.isOver { session.close() }
    }
}

/// Hands the socket's requests to the main thread.
private struct InboxForwarder: ControlRequestHandler {
    let inbox: DaemonInbox
    func handle(_ request: ControlRequest, from client: ControlClientHandle) { inbox.post(.request(request, client)) }
    func clientLeft(_ client: ControlClientHandle) { inbox.post(.clientLeft(client)) }
    func answer(_ reply: [UInt8], to client: ControlClientHandle) { inbox.post(.reply(reply, client)) }
}
