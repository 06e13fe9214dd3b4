import DecibarCore
import Glibc

/// A client of the daemon's control socket, for `decibar ctl` and `decibar levels`: blocking, one
/// request at a time, events kept apart from replies by their request ids.
public final class ControlConnectionClient {
    public enum Failure: Error, Equatable {
        /// Nothing listens at the path (no daemon, or a stale socket).
        case absent
        case refused
        /// The daemon closed the connection or did not answer in time.
        case lost(String)
    }

    public struct Reply {
        public let error: String
        public let message: String?
        public let data: JSONValue?
        public var succeeded: Bool { error == "success" }
    }

    private let fd: Int32
    private var splitter = ControlLineSplitter(maximumLineLength: 16 << 20)
    private var lines: [[UInt8]] = []
    /// Reused by every read: a subscriber reads dozens of times a second.
    private var buffer = [UInt8](repeating: 0, count: 65536)
    private var nextID: Int64 = 1
    private let timeout: Double?

    /// Connects to `path`. `timeout` bounds each wait for a reply (nil: wait as long as it takes).
    public init(path: String, timeout: Double? = 10) throws(Failure) {
        self.timeout = timeout
        do {
            fd = try Posix.connectUnix(path)
        } catch {
            switch error.code {
            case ECONNREFUSED: throw .refused
            case ENOENT, ENOTDIR, ENAMETOOLONG: throw .absent
            default: throw .lost(error.description)
            }
        }
    }

    deinit { close(fd) }

    /// Sends a command and waits for its reply; events that arrive meanwhile go to `onEvent`.
    public func request(_ command: [JSONValue], onEvent: (([UInt8]) -> Void)? = nil) throws(Failure) -> Reply {
        let id = nextID
        nextID += 1
        var line: [UInt8] = []
        JSONValue.object(["command": .array(command), "request_id": .number(Double(id))]).append(to: &line)
        line.append(UInt8(ascii: "\n"))
        try send(line)
        while true {
            let received = try nextLine()
            guard case .object(let members)? = JSONValue(parsing: received) else { continue }
            if members["event"] != nil {
                onEvent?(received)
                continue
            }
            guard members["request_id"]?.number == Double(id) else { continue }
            return Reply(error: members["error"]?.string ?? "unknown error", message: members["message"]?.string, data: members["data"])
        }
    }

    /// Sends a string-argument command: `request(["seek", "90"])` as the ctl command line gives it.
    public func request(_ words: [String]) throws(Failure) -> Reply {
        try request(words.map(JSONValue.string))
    }

    /// The next line from the daemon (an event, once subscribed).
    public func nextLine() throws(Failure) -> [UInt8] {
        guard let line = try nextLine(until: nil) else { throw .lost("the daemon did not answer") }
        return line
    }

    /// The next line, or nil when `deadline` (monotonic seconds) comes first.
    public func nextLine(until deadline: Double?) throws(Failure) -> [UInt8]? {
        while lines.isEmpty {
            let untilDeadline = deadline.map { max(0, $0 - MonotonicClock.now()) }
            if let wait = [timeout, untilDeadline].compactMap({ $0 }).min() {
                let ready: Bool
                do { ready = try Posix.poll(fd, milliseconds: Int32((wait * 1000).rounded(.up))) } catch { throw .lost(error.description) }
                if !ready {
                    if let deadline, MonotonicClock.now() >= deadline { return nil }
                    if let timeout { throw .lost("the daemon did not answer within \(Int(timeout)) s") }
                    continue
                }
            }
            let count = (try? buffer.withUnsafeMutableBytes { raw throws(Posix.Failure) in try Posix.read(fd, into: raw) }) ?? 0
            guard count > 0 else { throw .lost("the daemon closed the connection") }
            buffer.withUnsafeBytes { bytes in
                splitter.append(UnsafeRawBufferPointer(rebasing: bytes[0 ..< count])) { piece in
                    if case .line(let line) = piece { lines.append(line) }
                }
            }
        }
        return lines.removeFirst()
    }

    private func send(_ bytes: [UInt8]) throws(Failure) {
        let sent: Bool = bytes.withUnsafeBytes { raw in (try? Posix.sendAll(fd, raw)) != nil }
        guard sent else { throw .lost("the daemon closed the connection") }
    }
}
