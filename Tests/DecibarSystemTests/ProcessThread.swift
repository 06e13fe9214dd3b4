import Foundation

/// One thread of a running process, as /proc/PID/task/TID/stat gives it (proc(5)).
struct ProcessThread {
    let id: Int
    let name: String
    /// The fields after the name: the first is the state (field 3 of proc(5)).
    let fields: [Substring]

    var state: String { fields.first.map(String.init) ?? "?" }
    /// Field 19.
    var niceness: Int? { fields.count > 16 ? Int(fields[16]) : nil }
    /// Its real-time priority if it runs round-robin (policy, field 41, is 2; priority field 40).
    var roundRobinPriority: Int? { fields.count > 38 && fields[38] == "2" ? Int(fields[37]) : nil }

    /// The process's threads, in the order they were made; none once it is gone.
    static func threads(of pid: pid_t) -> [ProcessThread] {
        let tasks = "/proc/\(pid)/task"
        let ids = ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).compactMap { Int($0) }.sorted()
        return ids.compactMap { id in
            // The name is in parentheses and may hold spaces and parentheses itself.
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(id)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            return ProcessThread(id: id, name: String(stat[stat.index(after: open) ..< close]),
                                 fields: stat[stat.index(close, offsetBy: 2)...].split(separator: " "))
        }
    }
}
