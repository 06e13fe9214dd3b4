import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Daemon: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the service that windows, scripts and status bars share (in the foreground; systemd supervises it).",
            discussion: CommandHelp.daemon)

        @OptionGroup var source: SourceOption

        @OptionGroup var display: DisplayOptions

        @OptionGroup var config: ConfigFileOption

        @OptionGroup(title: "Player") var scrubber: ScrubberOptions

        @OptionGroup var outputs: OutputsOption

        @Option(name: ConfigSchema.Daemon.window.option, help: ConfigSchema.Daemon.window.help) var window: String?
        @Option(name: ConfigSchema.Daemon.tap.option, help: ConfigSchema.Daemon.tap.help) var tap: String?

        @Option(name: .long, help: ArgumentHelp("The control socket (default $XDG_RUNTIME_DIR/decibar/control.sock).", valueName: "path"))
        var socket: String?

        @Option(name: ConfigSchema.Daemon.logLevel.option, help: ConfigSchema.Daemon.logLevel.help) var logLevel: String?
        /// What only the daemon's own options set, as a layer over the file.
        private func layer() throws -> Configuration {
            var layer = Configuration()
            try layer.put(ConfigSchema.Daemon.window, window.map(JSONValue.string))
            try layer.put(ConfigSchema.Daemon.tap, tap.map(JSONValue.string))
            try layer.put(ConfigSchema.Daemon.logLevel, logLevel.map(JSONValue.string))
            return layer
        }

        func validate() throws {
            _ = try layer()
            if let socket, socket.isEmpty { throw ValidationError("--socket needs a path") }
        }

        func run() throws {
            try DecibarApp.Daemon(settings: try settings()).run()
        }

        /// What the daemon takes: its options (the file is read, and reread, by the daemon).
        func settings() throws -> DaemonSettings {
            var settings = DaemonSettings(socketPath: socket, configPath: config.path)
            var layer = try display.layer().merging(try source.layer()).merging(try scrubber.layer()).merging(try outputs.layer())
                .merging(try layer())
            // The log level on the command line is the daemon's own (a reload cannot change it).
            layer.remove(ConfigSchema.Daemon.logLevel.key)
            settings.overrides = layer
            settings.logLevel = logLevel
            settings.frameLog = display.frameLog
            return settings
        }
    }
}
