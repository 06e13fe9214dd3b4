import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Levels: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print levels, spectrum bands, loudness, beats or the stereo image as JSON lines, without a window.",
            discussion: CommandHelp.levels)
        static let settingCommand = SettingCommand.levels
        static let ownOptions: Set<String> = ["--mode", "--bars", "--floor", "--rate"]

        @OptionGroup(title: "Settings") var options: SettingOptions<Levels>

        @Option(name: .long, help: ArgumentHelp("Analyze this audio file instead of a live source.", valueName: "path"))
        var file: String?

        @Option(name: .long, help: ArgumentHelp("levels (RMS and peak per channel), spectrum (band levels), loudness (EBU R128), beats (beat times and tempo) or stereo (phase correlation, balance and width of the first two channels).", valueName: "levels|spectrum|loudness|beats|stereo"))
        var mode: LevelsMode = .levels

        @Option(name: .long, help: ArgumentHelp("Bands per channel in spectrum mode (fewer when low bands must merge to hold an FFT bin).", valueName: "n"))
        var bands = 32

        @Option(name: .long, help: ArgumentHelp("json (the lines above), waybar (a JSON object for waybar's custom module) or ascii (cava's raw ASCII bars).",
                                                valueName: "json|waybar|ascii"))
        var format: LevelsFormat = .json

        @Option(name: .long, help: ArgumentHelp("Bars of --format waybar and ascii (1 to 256).", valueName: "n"))
        var bars = 8

        @Option(name: .customLong("ascii-max"), help: ArgumentHelp("The value of a full bar in --format ascii (cava's ascii_max_range).", valueName: "n"))
        var asciiMax = 1000

        @Flag(name: .long, help: "Spectrum: each line's own analysis, without the window's smoothing (floor -160 dB).")
        var raw = false

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Spectrum: the level of an empty bar, in dB (default -70, as the window's); smoothed levels stay at or above it.", valueName: "dB"))
        var floor: Float?

        @Flag(name: .long, help: "Open a tap of its own even when a daemon runs (by default, live levels come from the running daemon's tap).")
        var standalone = false

        @Option(name: .long, help: ArgumentHelp("The daemon's socket to subscribe to (default $XDG_RUNTIME_DIR/decibar/control.sock).", valueName: "path"))
        var socket: String?

        @Option(name: .long, help: ArgumentHelp("Lines per second (of file time with --file); with --send, also what is sent a second (default 60 for it).", valueName: "hz"))
        var rate: Double?

        @Option(name: .long, help: ArgumentHelp(
            "Stop after this many seconds (of file time with --file). Default: until interrupted, or the end of the file.",
            valueName: "seconds"))
        var duration: Double?

        func validate() throws {
            if standalone && socket != nil {
                throw ValidationError("--standalone and --socket cannot be used together")
            }
            let (source, apps, outputs, backend) = try listening()
            let tapOfItsOwn = source != nil || !apps.isEmpty || backend != .auto
            if socket != nil && tapOfItsOwn {
                throw ValidationError("--socket reads the daemon's tap; --source, --app, --exclude-app and --backend open a tap of their own")
            }
            if file != nil && tapOfItsOwn {
                throw ValidationError("--source, --app, --exclude-app and --backend listen live: they cannot be used with --file")
            }
            guard (1...1024).contains(bands) else { throw ValidationError("--bands must be between 1 and 1024") }
            if !outputs.isEmpty && (file != nil || socket != nil) {
                throw ValidationError("--send sends what is heard live from a tap of its own: it cannot be used with --file or --socket")
            }
            if let rate, !(rate.isFinite && rate >= 0.001 && rate <= 1000) {
                throw ValidationError("--rate must be between 0.001 and 1000 lines per second")
            }
            if let duration, !(duration.isFinite && duration > 0) {
                throw ValidationError("--duration must be a positive number of seconds")
            }
            if let floor, !(floor.isFinite && floor >= -160 && floor <= -10) {
                throw ValidationError("--floor must be between -160 and -10 dB")
            }
            if (raw || floor != nil) && mode != .spectrum {
                throw ValidationError("--raw and --floor apply to --mode spectrum")
            }
            if raw && floor != nil {
                throw ValidationError("--raw and --floor cannot be used together: raw levels are not held at a floor")
            }
            if format != .json {
                guard mode == .levels, !raw, floor == nil else {
                    throw ValidationError("--format \(format.rawValue) makes its own bars and levels: it takes no --mode, --raw or --floor")
                }
                guard (1...256).contains(bars) else { throw ValidationError("--bars must be between 1 and 256") }
                guard (1...65535).contains(asciiMax) else { throw ValidationError("--ascii-max must be between 1 and 65535") }
            }
        }

        /// Lines a second.
        var lineRate: Double { rate ?? 30 }

        /// What the options say to listen to, and where to send what is heard (levels reads no config file).
        private func listening() throws -> (source: String?, apps: AppSelection, outputs: [OutputTarget], backend: AudioBackendChoice) {
            let layer = try options.layer()
            return (layer[ConfigSchema.audio.source], AppSelection(apps: layer[ConfigSchema.audio.apps], excludedApps: layer[ConfigSchema.audio.excludeApps]),
                    layer[ConfigSchema.outputs.send], layer[ConfigSchema.audio.backend])
        }

        func run() throws {
            let (source, apps, outputs, backend) = try listening()
            let rate = lineRate
            var settings = LevelsSettings()
            settings.mode = mode
            settings.bands = bands
            settings.raw = raw
            if let floor { settings.floorDB = floor }
            settings.exactLoudness = file != nil
            if let feed = StatusBarFeed.Format(rawValue: format.rawValue) {
                settings.feed = feed
                settings.bands = bars
                settings.asciiMax = asciiMax
            }
            if let file {
                try FileLevels(path: file, rate: rate, duration: duration, settings: settings).run()
            } else if !outputs.isEmpty {
                // Sending needs the audio itself: a tap of its own, even beside a daemon. What the
                // outputs draw looks as the window does by default (levels takes no display options).
                var levels = LiveLevels(source: source, apps: apps, rate: rate, duration: duration, settings: settings,
                                        outputs: outputs, outputRate: self.rate ?? OutputHub.displayRate, display: DisplaySettings())
                levels.backend = backend
                try levels.run()
            } else if !standalone, source == nil, apps.isEmpty, backend == .auto, rate <= Subscription.rates.upperBound, rate >= Subscription.rates.lowerBound,
                      let client = try? DaemonClient.connect(socket: socket, timeout: nil) {
                // A daemon runs: its one tap serves everybody.
                try SubscribedLevels(client: client, settings: settings, rate: rate, duration: duration).run()
            } else if socket != nil && !standalone {
                _ = try DaemonClient.connect(socket: socket)
            } else {
                var levels = LiveLevels(source: source, apps: apps, rate: rate, duration: duration, settings: settings)
                levels.backend = backend
                try levels.run()
            }
        }
    }
}
