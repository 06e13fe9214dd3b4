import CSystemd
import Glibc

/// Tells systemd how the service is doing (`Type=notify`): ready once it listens, reloading,
/// stopping, and a status line `systemctl status` shows. Without `$NOTIFY_SOCKET` (not started by
/// systemd) every call does nothing.
public enum ServiceNotifier {
    /// The daemon listens: systemd may start what waits for it.
    public static func ready(status: String) { send("READY=1\nSTATUS=\(status.oneLineForSystemd)") }

    /// A config reload began; `ready` follows when it is done.
    public static func reloading() { send("RELOADING=1") }

    public static func stopping() { send("STOPPING=1") }

    /// A line for `systemctl --user status decibar`.
    public static func status(_ text: String) { send("STATUS=\(text.oneLineForSystemd)") }

    private static func send(_ state: String) {
        // 0: keep $NOTIFY_SOCKET, so later calls (reload, stop) still reach systemd.
        // Only under systemd (which set $NOTIFY_SOCKET) is libsystemd worth opening.
        guard getenv("NOTIFY_SOCKET") != nil, let functions = systemdLibrary.table else { return }
        _ = functions.sd_notify!(0, state)
    }
}

extension String {
    /// Newlines would start a new KEY=VALUE assignment.
    fileprivate var oneLineForSystemd: String { String(map { $0 == "\n" || $0 == "\r" ? " " : $0 }) }
}
