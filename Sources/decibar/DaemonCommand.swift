import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Daemon: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the service that windows, scripts and status bars share (in the foreground; systemd supervises it).",
            discussion: """
                Owns one tap on what the computer plays (following the default output), a player and \
                the window, and listens on a control socket ($XDG_RUNTIME_DIR/decibar/control.sock) for \
                'decibar ctl' and 'decibar levels'. The window starts hidden (--window shown to show it); \
                closing it, q or Esc hide it, and only 'decibar ctl quit' or a signal stops the daemon. \
                With no window shown and no subscriber, nothing listens to the audio and no CPU is used.
                SIGTERM and SIGINT stop it (exit 0, socket removed); SIGHUP reloads the config, as does \
                saving the file. One daemon runs per user: a second one says which runs and exits 1.
                Start it at login with: systemctl --user enable --now decibar
                """)

        @OptionGroup var display: DisplayOptions

        @OptionGroup var config: ConfigFileOption

        @OptionGroup(title: "Player") var scrubber: ScrubberOptions

        @Option(name: .long, help: ArgumentHelp("Whether the window shows at start.", valueName: "shown|hidden"))
        var window: String?

        @Option(name: .long, help: ArgumentHelp("on-demand: listen to the audio only while the window shows or a client subscribes; always: keep listening.",
                                                valueName: "on-demand|always"))
        var tap: String?

        @Option(name: .long, help: ArgumentHelp("The control socket (default $XDG_RUNTIME_DIR/decibar/control.sock).", valueName: "path"))
        var socket: String?

        @Option(name: .long, help: ArgumentHelp("What the daemon logs to stderr.", valueName: "trace|debug|info|notice|warning|error|critical"))
        var logLevel: String?

        func validate() throws {
            var layer = Configuration()
            for (name, key, value) in [("--window", "daemon.window", window), ("--tap", "daemon.tap", tap), ("--log-level", "daemon.log_level", logLevel)] {
                guard let value else { continue }
                do { try layer.set(key, to: .string(value)) } catch {
                    throw ValidationError("\(name): \(error.message)")
                }
            }
            if let socket, socket.isEmpty { throw ValidationError("--socket needs a path") }
        }

        func run() throws {
            var settings = DaemonSettings(socketPath: socket, configPath: config.path)
            var layer = display.layer.merging(scrubber.layer)
            if let window { try? layer.set("daemon.window", to: .string(window)) }
            if let tap { try? layer.set("daemon.tap", to: .string(tap)) }
            settings.overrides = layer
            settings.logLevel = logLevel
            settings.frameLog = display.frameLog
            try DecibarApp.Daemon(settings: settings).run()
        }
    }
}
