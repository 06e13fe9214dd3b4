import DecibarCore

/// How `decibar daemon` was started: where it listens and reads its config, and what its command
/// line set (a layer over the config file).
public struct DaemonSettings: Sendable {
    /// nil: `$XDG_RUNTIME_DIR/decibar/control.sock`.
    public var socketPath: String?
    public var configPath: String
    /// Values from the command line, over the file's.
    public var overrides = Configuration()
    /// Set only from the command line: written by the daemon's log, not the config.
    public var logLevel: String?
    /// One line per frame, for the frame-pacing benchmark.
    public var frameLog: String?

    public init(socketPath: String?, configPath: String) {
        self.socketPath = socketPath
        self.configPath = configPath
    }
}
