import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// The live window's frame loop. It owns the process main thread (SDL wants the thread that
/// opened the window); audio arrives through the feed from the concurrency pool.
public struct LiveView {
    public let target: TapTarget
    public let display: DisplaySettings
    /// Added to the sink's measured latency (may be negative), seconds.
    public let avOffset: Double

    /// The config file to follow, and the command line's values over it.
    let reload: ConfigReload?
    /// Where the analysis is also sent (`--send`).
    let outputs: [OutputTarget]
    /// How the tap reaches the server (`--backend`).
    public var backend = AudioBackendChoice.auto
    /// The settings `display` was made from (the file's, the command line's over them): what the
    /// keys' `set` and `cycle` start from, and the `[keys]` bindings.
    public var configuration = Configuration()

    /// `source` names a source or sink (its monitor); nil follows the default output's monitor.
    /// Apps named in `apps` are listened to alone (on `source`'s output only, if given).
    public init(source: String?, apps: AppSelection = AppSelection(), display: DisplaySettings, avOffset: Double,
                reload: ConfigReload? = nil, outputs: [OutputTarget] = []) {
        target = TapTarget(source: source, apps: apps)
        self.display = display
        self.avOffset = avOffset
        self.reload = reload
        self.outputs = outputs
    }

    /// The live window as `configuration` says (the file's, the command line's over them), with the
    /// window's own rows in `display`.
    public init(configuration: Configuration, display: DisplaySettings, reload: ConfigReload?) {
        self.init(source: configuration[ConfigSchema.audio.source],
                  apps: AppSelection(apps: configuration[ConfigSchema.audio.apps], excludedApps: configuration[ConfigSchema.audio.excludeApps]),
                  display: display, avOffset: configuration[ConfigSchema.audio.avOffset] / 1000, reload: reload,
                  outputs: configuration[ConfigSchema.outputs.send])
        backend = configuration[ConfigSchema.audio.backend]
        self.configuration = configuration
    }

    /// How long a key's failure shows in the corner.
    static let keyNoticeSeconds = 3.0

    public func run() throws {
        let window = try FrameLoop.openWindow(display: display)
        func makeVisualizer(_ display: DisplaySettings) throws -> Visualizer {
            do {
                return try Visualizer(display: display, shaders: ShaderLibrary(),
                                      labelSize: max(11, window.drawableSize.height / 48), now: MonotonicClock.now())
            } catch {
                throw CommandFailure(message: error.description)
            }
        }
        var visualizer = try makeVisualizer(display)
        // What only the command line sets stays as it was when the look is made anew.
        func look(_ configuration: Configuration) -> DisplaySettings {
            var look = DisplaySettings(configuration: configuration)
            (look.exitAfter, look.screenshot, look.record, look.recordFPS, look.frameLog) =
                (display.exitAfter, display.screenshot, display.record, display.recordFPS, display.frameLog)
            return look
        }
        var commands = OwnWindowCommands(keys: KeyBindings(configuration.keys), settings: configuration) { changed throws(ControlFailure) in
            do { visualizer = try makeVisualizer(look(changed)) } catch { throw ControlFailure(.commandFailed, "\(error)") }
        }
        // Saving the config file redraws with its values (the command line's still on top).
        let changed = ConfigWatcher.Flag()
        let watcher = reload.flatMap { reload in
            ConfigWatcher(path: reload.path) {
                changed.raise()
                Window.wakeEventLoop()
            }
        }
        defer { _ = watcher }
        let tap: any LiveTap
        do {
            // A recording keeps 256-frame deliveries throughout: a sound after silence must not arrive late.
            tap = try LiveTaps.open(backend: backend, target: target, relaxesInSilence: display.record == nil, measuresSinkLatency: true,
                                    priority: RealtimePriority.tap, notice: { writeError($0) })
        } catch {
            throw CommandFailure(message: error.description)
        }
        let feed = AudioFeed()
        let avOffset = self.avOffset
        let hub = try OutputHub.starting(outputs, display: display, rate: display.fps ?? OutputHub.displayRate,
                                         heardDelay: { tap.sinkLatency + avOffset })
        let pump = FeedPump(tap.buffers, into: feed, also: hub?.add, told: hub?.beatListener())
        defer {
            tap.stop()
            pump.cancel()
            hub?.stop()
            reportDroppedBuffers(tap)
        }
        tap.start()

        let screen = LiveScreen(tap: tap, feed: feed, pump: pump, avOffset: avOffset, text: LiveScreen.makeText(for: window))
        let onScreen = OnScreenDisplay.make(for: window, keys: commands.keys, display: display)
        commands.onScreen = onScreen
        let recorder = try display.record.map { path in
            try Recorder(path: path, fps: display.recordFPS, width: window.drawableSize.width, height: window.drawableSize.height)
        }
        var lastProblem: String?
        var saidPlacement = false
        // Files dropped on the window open the player in it; more join its list (Shift: play now).
        var player: PlayerScreen?
        defer { player?.session.close() }
        func play(_ dropped: String, now: Bool) throws {
            let path = MediaLocation.dropped(dropped)
            if let player, !player.session.isOver {
                player.session.append([path])
                if now { player.session.open(from: player.session.files.count - 1) }
            } else {
                let settings = commands.settings
                let session = PlaySession(files: [path], loop: settings[ConfigSchema.player.loop], volume: settings[ConfigSchema.player.volume])
                session.streamSettings = StreamSettings(configuration: settings)
                let scrubber = ScrubberSettings(configuration: settings)
                let shaders = try ShaderLibrary()
                let renderers = try PlayerScreen.makeRenderers(for: window, shaders: shaders)
                player?.session.close()
                player = PlayerScreen(session: session, scrubber: ScrubberView(options: scrubber, rects: renderers.rects, text: renderers.text, shaders: shaders),
                                      pictures: renderers.pictures, captions: renderers.captions, decibels: scrubber.decibels)
                session.open(from: 0)
            }
            let joins = player.map { $0.session.files.count > 1 && !now } == true
            onScreen?.say((joins ? OnScreenText.queuedToast : OnScreenText.droppedToast)(MediaLocation(path).displayName), now: MonotonicClock.now())
        }
        try FrameLoop(surface: window, display: display, recorder: recorder).run { frame in
            if changed.take(), let reload {
                do {
                    let file = try ConfigFile.load(reload.path)
                    let merged = file.merging(reload.overrides)
                    let reloaded = look(merged)
                    visualizer = try makeVisualizer(reloaded)
                    (commands.settings, commands.keys) = (merged, KeyBindings(merged.keys))
                    onScreen?.keys = commands.keys
                    onScreen?.restyle(reloaded)
                    screen.notice = nil
                    lastProblem = nil
                    // The window is not made again here (the daemon's is): say so rather than ignore it.
                    let placed = (reloaded.layer, reloaded.monitor, reloaded.placement)
                    if placed != (display.layer, display.monitor, display.placement) && !saidPlacement {
                        saidPlacement = true
                        writeError("config reloaded; a new display.layer, monitor, anchor, height or margin takes effect when live starts again")
                    }
                } catch let failure as ConfigFile.Failure {
                    // The previous look stays; the problem is said once.
                    if failure.summary != lastProblem {
                        lastProblem = failure.summary
                        writeError("config not reloaded, the previous one stays: \(failure.summary)")
                    }
                    screen.notice = ("config not reloaded: \(failure.screenSummary)", frame.now + 8)
                }
            }
            for case .dropped(let dropped, let playsNow) in frame.events {
                do { try play(dropped, now: playsNow) } catch { onScreen?.say("\(error)", now: frame.now) }
            }
            if let session = player?.session, session.isOver {
                // The list played out: back to what the tap hears.
                session.close()
                player = nil
            }
            if let problem = commands.run(&frame, surface: window, visualizer: visualizer, player: player) {
                if let session = player?.session { session.announce(problem) } else { screen.notice = (problem, frame.now + Self.keyNoticeSeconds) }
            }
            if let player {
                player.frame(&frame, surface: window, visualizer: visualizer, recorder: recorder, onScreen: onScreen)
            } else {
                screen.frame(&frame, surface: window, visualizer: visualizer, recorder: recorder, onScreen: onScreen)
            }
        }
    }
}
