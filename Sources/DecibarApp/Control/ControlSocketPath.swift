import DecibarCore
import Foundation
import Glibc

/// Where the control socket lives and whether something answers there.
enum ControlSocketPath {
    /// `$XDG_RUNTIME_DIR/decibar/control.sock`. Without XDG_RUNTIME_DIR there is no private place
    /// to put it, and guessing one (in /tmp, say) could expose the daemon: that is an error.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CommandFailure) -> String {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else {
            throw CommandFailure(message: "XDG_RUNTIME_DIR is not set, so there is no private folder for the control socket: log in through a session that sets it, or give --socket PATH in a folder only you can read")
        }
        return runtime + "/decibar/control.sock"
    }

    /// Makes the socket's folder (0700) if needed, and checks the path fits a socket address.
    static func prepareFolder(of path: String) throws(CommandFailure) {
        guard path.utf8.count < 107 else {
            throw CommandFailure(message: "the socket path \(path) is too long (a Unix socket path has at most 106 bytes)")
        }
        let folder = (path as NSString).deletingLastPathComponent
        var info = stat()
        if stat(folder, &info) != 0 {
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                throw CommandFailure(message: "cannot make the folder \(folder): \(String(cString: strerror(errno)))")
            }
            chmod(folder, 0o700)
        } else if (info.st_mode & S_IFMT) != S_IFDIR {
            throw CommandFailure(message: "\(folder) is not a folder")
        } else if info.st_uid != getuid() {
            throw CommandFailure(message: "\(folder) belongs to another user; give --socket a path in a folder of your own")
        }
    }

    enum Probe {
        case absent
        case notASocket
        /// A file is there but nothing listens (a daemon crashed).
        case stale
        /// A daemon answered; its pid when it said.
        case answered(pid: Int32?)
    }

    /// Connects to see whether a daemon listens, and asks it for its pid.
    static func probe(_ path: String) -> Probe {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .absent }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else { return .notASocket }
        do {
            let client = try ControlConnectionClient(path: path, timeout: 2)
            let reply = try? client.request(["get_status"])
            let pid = reply.flatMap { reply -> Int32? in
                guard case .object(let data)? = reply.data, let pid = data["pid"]?.number else { return nil }
                return Int32(pid)
            }
            return .answered(pid: pid)
        } catch ControlConnectionClient.Failure.refused {
            return .stale
        } catch {
            // Something holds the path and does not refuse: treat it as running rather than steal it.
            return .answered(pid: nil)
        }
    }
}
