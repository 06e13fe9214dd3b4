import DecibarCore

/// Reaching a running daemon from the command line, with the errors a user can act on.
public enum DaemonClient {
    /// Connects to the daemon's socket (`socket`, or the default one).
    public static func connect(socket: String?, timeout: Double? = 10) throws(CommandFailure) -> ControlConnectionClient {
        let path: String
        if let socket { path = socket } else { path = try ControlSocketPath.defaultPath() }
        do {
            return try ControlConnectionClient(path: path, timeout: timeout)
        } catch .absent, .refused {
            throw CommandFailure(message: "no decibar daemon at \(path): start one with `decibar daemon` or `systemctl --user start decibar`")
        } catch {
            throw CommandFailure(message: "cannot reach the decibar daemon at \(path): \(describe(error))")
        }
    }

    /// Whether a daemon answers at the default socket (or `socket`).
    public static func isRunning(socket: String?) -> Bool {
        guard let path = try? socket ?? ControlSocketPath.defaultPath() else { return false }
        return (try? ControlConnectionClient(path: path, timeout: 2)) != nil
    }

    public static func describe(_ error: ControlConnectionClient.Failure) -> String {
        switch error {
        case .absent: "nothing listens there"
        case .refused: "the daemon refused the connection"
        case .lost(let reason): reason
        }
    }
}
