import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Daemon: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the service that windows, scripts and status bars share (in the foreground; systemd supervises it).",
            discussion: CommandHelp.daemon)
        static let settingCommand = SettingCommand.daemon

        @OptionGroup(title: "Settings") var options: SettingOptions<Daemon>

        @OptionGroup var config: ConfigFileOption

        @Option(name: .long, help: ArgumentHelp("The control socket (default $XDG_RUNTIME_DIR/decibar/control.sock).", valueName: "path"))
        var socket: String?

        /// One line per frame of its window, for the frame-pacing benchmarks.
        @Option(name: .customLong("frame-log"), help: .hidden)
        var frameLog: String?

        func validate() throws {
            if let socket, socket.isEmpty { throw ValidationError("--socket needs a path") }
            if let frameLog { try checkOutput(frameLog, option: "--frame-log", kind: .file) }
        }

        func run() throws {
            try DecibarApp.Daemon(settings: try settings()).run()
        }

        /// What the daemon takes: its options (the file is read, and reread, by the daemon).
        func settings() throws -> DaemonSettings {
            var settings = DaemonSettings(socketPath: socket, configPath: config.path)
            var layer = try options.layer()
            // The log level on the command line is the daemon's own (a reload cannot change it).
            if layer.isSet(ConfigSchema.daemon.logLevel) { settings.logLevel = layer[ConfigSchema.daemon.logLevel] }
            layer.remove(ConfigSchema.daemon.logLevel.key)
            settings.overrides = layer
            settings.frameLog = frameLog
            return settings
        }
    }
}
