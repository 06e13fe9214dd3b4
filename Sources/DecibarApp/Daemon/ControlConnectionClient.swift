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
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .lost("cannot make a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { close(fd); throw .absent }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 {
            let code = errno
            close(fd)
            switch code {
            case ECONNREFUSED: throw .refused
            case ENOENT, ENOTDIR: throw .absent
            default: throw .lost(String(cString: strerror(code)))
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
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, Int32((wait * 1000).rounded(.up)))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 {
                    if let deadline, MonotonicClock.now() >= deadline { return nil }
                    if let timeout { throw .lost("the daemon did not answer within \(Int(timeout)) s") }
                    continue
                }
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
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
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw .lost("the daemon closed the connection") }
            offset += written
        }
    }
}
