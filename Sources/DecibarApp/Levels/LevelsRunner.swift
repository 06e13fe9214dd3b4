import DecibarCore

/// What `decibar levels` does with its options: a file analyzed as fast as it reads, a tap of its
/// own (to send, or standalone), or the running daemon's tap.
public struct LevelsRunner {
    let settings: Configuration

    public init(settings: Configuration) {
        self.settings = settings
    }

    public func run() throws {
        let rows = LevelsOptions.rows
        let source = settings[ConfigSchema.audio.source]
        let apps = AppSelection(apps: settings[ConfigSchema.audio.apps], excludedApps: settings[ConfigSchema.audio.excludeApps])
        let (outputs, backend) = (settings[ConfigSchema.outputs.send], settings[ConfigSchema.audio.backend])
        let (socket, duration, givenRate) = (settings[rows.socket], settings[rows.duration], settings[rows.rate])
        let rate = givenRate ?? 30
        let levels = lineSettings()
        if let file = settings[rows.file] {
            try FileLevels(path: file, rate: rate, duration: duration, settings: levels).run()
        } else if !outputs.isEmpty {
            // Sending needs the audio itself: a tap of its own, even beside a daemon. What the
            // outputs draw looks as the window does by default (levels takes no display options).
            var live = LiveLevels(source: source, apps: apps, rate: rate, duration: duration, settings: levels,
                                  outputs: outputs, outputRate: givenRate ?? OutputHub.displayRate, display: DisplaySettings())
            live.backend = backend
            try live.run()
        } else if !settings[rows.standalone], source == nil, apps.isEmpty, backend == .auto, Subscription.rates.contains(rate),
                  let client = try? DaemonClient.connect(socket: socket, timeout: nil) {
            // A daemon runs: its one tap serves everybody.
            try SubscribedLevels(client: client, settings: levels, rate: rate, duration: duration).run()
        } else if socket != nil && !settings[rows.standalone] {
            _ = try DaemonClient.connect(socket: socket)
        } else {
            var live = LiveLevels(source: source, apps: apps, rate: rate, duration: duration, settings: levels)
            live.backend = backend
            try live.run()
        }
    }

    /// What each line says, from the options.
    private func lineSettings() -> LevelsSettings {
        let rows = LevelsOptions.rows
        var levels = LevelsSettings()
        levels.mode = settings[rows.mode]
        levels.bands = settings[rows.bands]
        levels.raw = settings[rows.raw]
        if let floor = settings[rows.floor] { levels.floorDB = Float(floor) }
        levels.exactLoudness = settings[rows.file] != nil
        if let feed = StatusBarFeed.Format(rawValue: settings[rows.format].rawValue) {
            levels.feed = feed
            levels.bands = settings[rows.bars]
            levels.asciiMax = settings[rows.asciiMax]
        }
        return levels
    }
}
