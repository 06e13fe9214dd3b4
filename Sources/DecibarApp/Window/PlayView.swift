import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// The player window's frame loop: bars for what is heard, the scrubber with playhead and labels,
/// and click/drag seeking. Owns the main thread like the live view.
public struct PlayView {
    public struct Settings: Sendable {
        public var files: [String]
        public var loop: LoopMode
        /// Play the list in random order.
        public var shuffle: Bool
        /// Close at the end of the list (scripts); otherwise the window stays, on the last track stopped.
        public var exitsAtEnd: Bool
        /// Percent on the sound server's scale.
        public var volume: Double
        /// Speed and pitch to start with.
        public var rateAndPitch: RateAndPitch
        /// Publish the player on the session bus (MPRIS).
        public var publishesMedia: Bool
        public var display: DisplaySettings
        public var scrubber: ScrubberSettings
        /// How streamed tracks are fetched.
        public var stream: StreamSettings
        /// One line per seek for the benchmarks.
        public var seekLogPath: String?
        /// The settings the others were read from: what the keys' `set` and `cycle` start from,
        /// and the `[keys]` bindings.
        public var configuration = Configuration()

        public init(files: [String], loop: LoopMode = .none, shuffle: Bool = false, exitsAtEnd: Bool = false, volume: Double = PlayerVolume.defaultPercent,
                    rateAndPitch: RateAndPitch = .normal, publishesMedia: Bool = true, display: DisplaySettings, scrubber: ScrubberSettings, stream: StreamSettings = StreamSettings(),
                    seekLogPath: String? = nil) {
            self.files = files
            self.loop = loop
            self.shuffle = shuffle
            self.exitsAtEnd = exitsAtEnd
            self.volume = volume
            self.rateAndPitch = rateAndPitch
            self.publishesMedia = publishesMedia
            self.display = display
            self.scrubber = scrubber
            self.stream = stream
            self.seekLogPath = seekLogPath
        }

        /// What the player takes from the settings in force (the options over the config file over the defaults).
        public init(files: [String], configuration: Configuration, exitsAtEnd: Bool, display: DisplaySettings, seekLogPath: String?) {
            let rows = ConfigSchema.player
            self.init(files: files, loop: configuration[rows.loop], shuffle: configuration[rows.shuffle], exitsAtEnd: exitsAtEnd,
                      volume: configuration[rows.volume], rateAndPitch: RateAndPitch(rate: configuration[rows.rate], pitch: configuration[rows.pitch]),
                      display: display, scrubber: ScrubberSettings(configuration: configuration), stream: StreamSettings(configuration: configuration),
                      seekLogPath: seekLogPath)
            self.configuration = configuration
        }
    }


    let settings: Settings

    public init(settings: Settings) {
        self.settings = settings
    }

    public func run() throws {
        // A list with nothing readable in it is said at once, without a window that opens to close.
        let unreadable = settings.files.compactMap { MediaLocation.isRemote($0) ? nil : FilePlaybackSource.readProblem(atPath: $0) }
        if !settings.files.isEmpty && unreadable.count == settings.files.count {
            unreadable.forEach { writeError($0.description) }
            throw CommandFailure.silent(status: 1)
        }
        let session = PlaySession(files: settings.files, loop: settings.loop, exitsAtEnd: settings.exitsAtEnd, volume: settings.volume,
                                  rateAndPitch: settings.rateAndPitch)
        session.streamSettings = settings.stream
        session.videoLayout = settings.scrubber.videoLayout
        if settings.shuffle { session.setShuffle(true) }
        // A first track at an address starts downloading while the window opens.
        session.prefetch(0)
        let window: Window
        do {
            window = try FrameLoop.openWindow(display: settings.display)
        } catch {
            session.close()
            throw error
        }
        let visualizer: Visualizer
        let renderers: (rects: RectRenderer, text: TextRenderer, pictures: PictureRenderer, captions: CaptionView)
        let shaders: ShaderLibrary
        do {
            shaders = try ShaderLibrary()
            visualizer = try Visualizer(display: settings.display, shaders: shaders, labelSize: PlayerScreen.labelSize(for: window),
                                        now: MonotonicClock.now())
            renderers = try PlayerScreen.makeRenderers(for: window, shaders: shaders)
        } catch {
            session.close()
            throw CommandFailure(message: error.description)
        }
        let seekLog = try settings.seekLogPath.map { path throws(CommandFailure) in try LineLog(path: path, purpose: "seek log") }
        let screen = PlayerScreen(session: session, scrubber: ScrubberView(options: settings.scrubber, rects: renderers.rects, text: renderers.text, shaders: shaders),
                            pictures: renderers.pictures, captions: renderers.captions,
                                  decibels: settings.scrubber.decibels, seekLog: seekLog)
        let recorder = try settings.display.record.map { path in
            try Recorder(path: path, fps: settings.display.recordFPS, width: window.drawableSize.width, height: window.drawableSize.height,
                         protecting: settings.files)
        }
        // Without a session bus the player simply has no media keys: not worth a line before every
        // other message (the daemon logs it and shows it in its status).
        let media = settings.publishesMedia ? MediaBridge.start(unavailable: { _ in }) : nil
        defer { media?.stop() }
        var commands = OwnWindowCommands(keys: KeyBindings(settings.configuration.keys), settings: settings.configuration, redraw: nil)
        let onScreen = OnScreenDisplay.make(for: window, keys: commands.keys, display: settings.display)
        commands.onScreen = onScreen
        do {
            try FrameLoop(surface: window, display: settings.display, recorder: recorder).run { frame in
                // The window shows at once; the first file opens after the first frame. Opening it loads
                // FFmpeg (~45 ms of dynamic linking), which would otherwise hold up the first frame: the GL
                // driver's first draw waits on the same dynamic loader lock.
                if frame.number == 1 { session.open(from: 0) }
                for request in media?.takeRequests() ?? [] {
                    switch request {
                    case .raise: window.show()
                    case .quit: frame.closes = true
                    case .open(let path):
                        session.append([path])
                        session.open(from: session.files.count - 1)
                    default: session.handle(request)
                    }
                }
                for case .dropped(let dropped, let playsNow) in frame.events {
                    // Joins the list; Shift plays it now. One that cannot be played is said when it comes up.
                    let path = MediaLocation.dropped(dropped)
                    session.append([path])
                    if playsNow || session.player == nil { session.open(from: session.files.count - 1) }
                    onScreen?.say((playsNow ? OnScreenText.droppedToast : OnScreenText.queuedToast)(MediaLocation(path).displayName), now: frame.now)
                }
                if let problem = commands.run(&frame, surface: window, visualizer: visualizer, player: screen) { session.announce(problem) }
                screen.frame(&frame, surface: window, visualizer: visualizer, recorder: recorder, onScreen: onScreen)
                media?.publish(session)
                if session.isOver { frame.closes = true }
            }
        } catch {
            session.close()
            throw error
        }
        session.close()
        // Every file was reported as it failed; the status says that nothing played.
        if session.cleanFileCount == 0 && session.failureCount > 0 { throw CommandFailure.silent(status: 1) }
    }
}
