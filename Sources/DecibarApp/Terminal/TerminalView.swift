import DecibarAudio
import DecibarCore
import Foundation

/// `decibar term`: the live visualizer (or, given files, the player) in the terminal it is started
/// from. The same analysis, modes, keys and settings as the window, drawn into cells: only the
/// cells that changed are written, each frame inside synchronized output where the terminal has it,
/// by a writer thread that drops frames rather than queue them behind a terminal that stopped reading.
public struct TerminalView {
    let files: [String]
    let configuration: Configuration

    public init(files: [String], configuration: Configuration) {
        self.files = files
        self.configuration = configuration
    }

    /// How long a change made by a key is said in the top row.
    static let noticeSeconds = 2.0
    /// The longest a picture at rest sleeps without input or sound.
    static let restTimeout = 0.25

    public func run() throws {
        // A list with nothing readable in it is said at once, before the terminal changes.
        let unreadable = files.compactMap { MediaLocation.isRemote($0) ? nil : FilePlaybackSource.readProblem(atPath: $0) }
        if !files.isEmpty && unreadable.count == files.count {
            unreadable.forEach { writeError($0.description) }
            throw CommandFailure.silent(status: 1)
        }
        let device = try TerminalDevice()
        let display = DisplaySettings(configuration: configuration)
        let source: Source
        if files.isEmpty {
            source = try Self.openTap(configuration: configuration, wake: device.wakeUp)
        } else {
            let session = PlaySession(files: files, loop: configuration[ConfigSchema.player.loop], volume: configuration[ConfigSchema.player.volume],
                                      rateAndPitch: RateAndPitch(rate: configuration[ConfigSchema.player.rate], pitch: configuration[ConfigSchema.player.pitch]))
            session.streamSettings = StreamSettings(configuration: configuration)
            if configuration[ConfigSchema.player.shuffle] { session.setShuffle(true) }
            session.prefetch(0)
            source = .player(TerminalPlayer(session: session, options: ScrubberSettings(configuration: configuration)))
        }
        defer { source.stop() }
        try device.enter()
        defer { device.restore() }
        var loop = TerminalLoop(device: device, source: source, display: display, configuration: configuration)
        // Without a session bus the player simply has no media keys.
        if case .player = source { loop.media = MediaBridge.start(unavailable: { _ in }) }
        defer { loop.media?.stop() }
        let ended = try loop.run()
        device.restore()
        if case .player(let player) = source {
            player.session.close()
            if player.session.cleanFileCount == 0 && player.session.failureCount > 0 { throw CommandFailure.silent(status: 1) }
        }
        // Ended by a signal: the status says which, as a shell's does (128 + its number).
        if let signal = ended { throw CommandFailure.silent(status: 128 + signal) }
    }

    /// What the terminal shows the sound of: a live tap, or the player.
    enum Source {
        case live(tap: any LiveTap, feed: AudioFeed, pump: FeedPump, avOffset: Double)
        case player(TerminalPlayer)

        var feed: AudioFeed {
            switch self {
            case .live(_, let feed, _, _): feed
            case .player(let player): player.session.heard
            }
        }

        func stop() {
            switch self {
            case .live(let tap, _, let pump, _):
                tap.stop()
                pump.cancel()
                reportDroppedBuffers(tap)
            case .player(let player): player.session.close()
            }
        }
    }

    private static func openTap(configuration: Configuration, wake: @escaping @Sendable () -> Void) throws -> Source {
        let target = TapTarget(source: configuration[ConfigSchema.audio.source],
                               apps: AppSelection(apps: configuration[ConfigSchema.audio.apps], excludedApps: configuration[ConfigSchema.audio.excludeApps]))
        let tap: any LiveTap
        do {
            // Deliveries a frame long, not 256 frames: a frame needs nothing sooner, and each
            // delivery wakes threads (at 256 frames, most of the CPU term used).
            let frame = 1 / (configuration[ConfigSchema.display.fps] ?? 60)
            tap = try LiveTaps.open(backend: configuration[ConfigSchema.audio.backend], target: target, fragmentDuration: frame,
                                    relaxesInSilence: true, measuresSinkLatency: true,
                                    priority: RealtimePriority.tap, notice: { writeError($0) })
        } catch {
            throw CommandFailure(message: error.description)
        }
        let feed = AudioFeed()
        let pump = FeedPump(tap.buffers, into: feed, wake: wake)
        tap.start()
        return .live(tap: tap, feed: feed, pump: pump, avOffset: configuration[ConfigSchema.audio.avOffset] / 1000)
    }
}
