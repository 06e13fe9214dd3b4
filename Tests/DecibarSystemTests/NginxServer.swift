import Foundation
import Testing

/// A private nginx on loopback (Scripts/nginx-start.sh) serving `directory/www`: plain at `/`,
/// throttled at `/slow/`, without ranges at `/norange/`, and a redirect loop at `/loop/`. Its
/// access log records every request's Range header. Stopped when it goes.
final class NginxServer {
    let directory: String
    let port: Int
    var www: String { directory + "/www" }

    /// - Parameter rate: bytes a second under `/slow/` (after the first 64 KiB).
    init(directory: String, rate: Int = 64 << 10) throws {
        self.directory = directory
        let started = try TestRig.run("bash", [TestRig.packageRoot + "/Scripts/nginx-start.sh", directory],
                                      environment: ["NGINX_RATE": "\(rate)"])
        guard started.status == 0, let port = Int(String(decoding: started.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw RigError("nginx did not start: \(started.error)")
        }
        self.port = port
    }

    deinit { stop() }

    func stop() {
        _ = try? TestRig.run("bash", [TestRig.packageRoot + "/Scripts/nginx-stop.sh", directory])
    }

    /// Kills the server outright (master and worker), as a crash or a pulled cable would end it.
    func kill() {
        guard let text = try? String(contentsOfFile: directory + "/nginx.pid", encoding: .utf8),
              let master = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
        // The workers are found first, and the master goes first (it would start new workers).
        let workers = ((try? TestRig.run("pgrep", ["-P", "\(master)"]))?.output).map { String(decoding: $0, as: UTF8.self) } ?? ""
        Glibc.kill(master, SIGKILL)
        for worker in workers.split(separator: "\n").compactMap({ Int32($0) }) { Glibc.kill(worker, SIGKILL) }
    }

    func url(_ name: String, under prefix: String = "") -> String {
        "http://127.0.0.1:\(port)/\(prefix)\(name)"
    }

    /// The access log's lines: `METHOD URI STATUS range=RANGE bytes=SENT`.
    var accessLog: [String] {
        ((try? String(contentsOfFile: directory + "/access.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
