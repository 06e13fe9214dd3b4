import Glibc

/// Every system call the application makes on a file descriptor, a child or the clock goes through
/// here: a call interrupted by a signal (EINTR) is made again, so no caller writes that loop, and a
/// failure comes back as its `errno`. (swift-nio's `System.swift` does the same for NIO.)
enum Posix {
    /// The C error of a failed call.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
        static func == (failure: Failure, code: Int32) -> Bool { failure.code == code }
    }

    /// Makes `call` again while it fails with EINTR; a failure is thrown with its errno.
    @inline(__always)
    private static func retrying<Result: BinaryInteger>(_ call: () -> Result) throws(Failure) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw Failure(code: code) }
        }
    }

    /// The CPU time the whole process has used, user and system, in seconds.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Whether `fd` is a terminal (a person typing, not a pipe or a file).
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) != 0 }

    /// Reads what is there, up to the buffer's size; 0 at the end.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        try retrying { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads up to the buffer's size at `offset` of a file; 0 past its end.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Failure) -> Int {
        try retrying { pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Writes what the file takes at once at `offset`.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Failure) -> Int {
        guard bytes.count > 0 else { return 0 }
        return try retrying { pwrite(fd, bytes.baseAddress, bytes.count, off_t(offset)) }
    }

    /// Writes what the descriptor takes at once (a non-blocking one may take less, or fail with EAGAIN).
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) -> Int {
        guard bytes.count > 0 else { return 0 }
        return try retrying { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    /// Writes all of `bytes` to a blocking descriptor.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = try write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            guard written > 0 else { throw Failure(code: EIO) }
            offset += written
        }
    }

    /// Sends all of `bytes` on a socket, without SIGPIPE when the peer has gone.
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            let sent = try retrying { Glibc.send(fd, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(code: EPIPE) }
            offset += sent
        }
    }

    /// Waits up to `milliseconds` (-1: for ever) for `events` on one descriptor; whether they came.
    /// An interrupted wait starts again with the whole timeout: callers that keep a deadline pass
    /// what is left of it.
    static func poll(_ fd: Int32, events: Int16 = Int16(POLLIN), milliseconds: Int32) throws(Failure) -> Bool {
        var poller = pollfd(fd: fd, events: events, revents: 0)
        return try retrying { Glibc.poll(&poller, 1, milliseconds) } > 0
    }

    /// The status of a child that has ended, without waiting: nil while it runs. Its raw status
    /// as `waitpid` gives it.
    static func reap(_ process: pid_t) throws(Failure) -> Int32? {
        var raw: Int32 = 0
        let result = try retrying { waitpid(process, &raw, WNOHANG) }
        return result == 0 ? nil : raw
    }

    /// Sleeps the whole time, whatever signals arrive.
    static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// Connects a stream socket to the Unix socket at `path`; the descriptor (close-on-exec).
    static func connectUnix(_ path: String) throws(Failure) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(code: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(fd)
            throw Failure(code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 {
            let code = errno
            Glibc.close(fd)
            throw Failure(code: code)
        }
        return fd
    }

    /// An address a datagram can be sent to: a resolved host and port, IPv4 or IPv6.
    struct SocketAddress: Sendable, CustomStringConvertible {
        fileprivate var storage = sockaddr_storage()
        fileprivate var length: socklen_t = 0
        var family: Int32 { Int32(storage.ss_family) }

        /// The numeric address and port, as `127.0.0.1:9000` or `[::1]:9000`.
        var description: String {
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST)), service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
            var copy = storage
            let result = withUnsafePointer(to: &copy) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    getnameinfo($0, length, &host, socklen_t(host.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
                }
            }
            guard result == 0 else { return "?" }
            let name = String(cString: host), port = String(cString: service)
            return family == AF_INET6 ? "[\(name)]:\(port)" : "\(name):\(port)"
        }
    }

    /// A name lookup that failed, with getaddrinfo's reason.
    struct LookupFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Looks `host` up (a name or a numeric address) for datagrams to `port`; the first address.
    /// It may take as long as the resolver does: never call it where waiting matters.
    static func resolveDatagramAddress(host: String, port: Int) throws(LookupFailure) -> SocketAddress {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw LookupFailure(description: status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var address = SocketAddress()
        address.length = first.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &address.storage) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        return address
    }

    /// A non-blocking datagram socket (close-on-exec) for `family`; multicast stays on the local
    /// network (one hop).
    static func datagramSocket(family: Int32) throws(Failure) -> Int32 {
        let fd = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Failure(code: errno) }
        return fd
    }

    /// Sends one datagram without waiting: a full socket buffer (EAGAIN) or an unreachable network
    /// comes back as a failure, and the datagram is dropped.
    static func sendDatagram(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, to address: SocketAddress) throws(Failure) {
        var copy = address
        _ = try withUnsafePointer(to: &copy.storage) { pointer throws(Failure) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target throws(Failure) in
                try retrying { sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), target, address.length) }
            }
        }
    }

    // MARK: Scheduling

    /// Puts the calling thread under round-robin real-time scheduling at `priority` (1–99); its
    /// children start with the normal policy (SCHED_RESET_ON_FORK). EPERM where neither the
    /// privilege (CAP_SYS_NICE) nor RLIMIT_RTPRIO allows that priority.
    static func setRealtimeScheduling(priority: Int32) throws(Failure) {
        // SCHED_RESET_ON_FORK (0x40000000): not exported by Glibc's module.
        var parameters = sched_param(sched_priority: priority)
        _ = try retrying { sched_setscheduler(0, SCHED_RR | 0x4000_0000, &parameters) }
    }

    /// The calling thread's policy (SCHED_OTHER, SCHED_RR, ...; without SCHED_RESET_ON_FORK) and priority.
    static func currentScheduling() -> (policy: Int32, priority: Int32) {
        var parameters = sched_param()
        _ = sched_getparam(0, &parameters)
        return (sched_getscheduler(0) & ~0x4000_0000, parameters.sched_priority)
    }

    /// The calling thread's nice value (-20 to 19; Linux keeps one per thread, and a thread it
    /// starts begins with its starter's).
    static func currentNiceness() -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    /// Sets the calling thread's nice value. EPERM (or EACCES) for a value below the current one
    /// where neither the privilege (CAP_SYS_NICE) nor RLIMIT_NICE allows it.
    static func setNiceness(_ value: Int32) throws(Failure) {
        _ = try retrying { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, value) }
    }

    /// A resource limit of this process: its soft and hard values (`rlim_t.max`: none).
    enum Limit {
        /// The highest real-time priority a thread may take without privilege.
        case realtimePriority
        /// The CPU time (µs) a real-time thread may take without blocking.
        case realtimeTime
        /// 20 minus the lowest nice value a thread may take without privilege.
        case niceness

        fileprivate var resource: __rlimit_resource_t {
            switch self {
            case .realtimePriority: __rlimit_resource_t(__RLIMIT_RTPRIO.rawValue)
            case .realtimeTime: __rlimit_resource_t(__RLIMIT_RTTIME.rawValue)
            case .niceness: __rlimit_resource_t(__RLIMIT_NICE.rawValue)
            }
        }
    }

    static func limit(_ which: Limit) -> (soft: rlim_t, hard: rlim_t) {
        var value = rlimit()
        guard getrlimit(which.resource, &value) == 0 else { return (0, 0) }
        return (value.rlim_cur, value.rlim_max)
    }

    static func setLimit(_ which: Limit, soft: rlim_t, hard: rlim_t) throws(Failure) {
        var value = rlimit(rlim_cur: soft, rlim_max: hard)
        _ = try retrying { setrlimit(which.resource, &value) }
    }

    /// The kernel's id of the calling thread (what /proc/thread-self names; glibc's gettid is not
    /// exported to Swift).
    static func currentThreadID() -> Int? {
        var bytes = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &bytes, bytes.count - 1)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[0 ..< count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { Int($0) }
    }

    /// When a file was last changed (nanoseconds since the epoch) and its size; nil when it cannot
    /// be looked at. `path` is a C string made once by the caller: a look allocates nothing.
    static func fileStamp(_ path: UnsafePointer<CChar>) -> (modified: Int64, size: Int64)? {
        var status = stat()
        guard fstatat(AT_FDCWD, path, &status, 0) == 0 else { return nil }
        return (Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec), Int64(status.st_size))
    }

    /// Hands the resident pages of every library whose file name contains `name` back to the kernel
    /// (MADV_PAGEOUT): code that runs again is read again from the file. Only ever saves memory, so
    /// a kernel without it (before 5.4) changes nothing.
    static func releasePages(ofLibrary name: String) {
        // /proc files say they are empty, so they are read to their end rather than by their size.
        let fd = Glibc.open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while let count = try? chunk.withUnsafeMutableBytes({ buffer throws(Failure) in try read(fd, into: buffer) }), count > 0 {
            bytes += chunk[0 ..< count]
        }
        let maps = String(decoding: bytes, as: UTF8.self)
        for line in maps.split(separator: "\n") where line.contains("/\(name)") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[5].contains(name) else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0], let start = UnsafeMutableRawPointer(bitPattern: bounds[0]) else { continue }
            _ = madvise(start, Int(bounds[1] - bounds[0]), 21) // MADV_PAGEOUT
        }
    }

    // MARK: Terminals

    /// A terminal's settings as `tcgetattr` gives them.
    static func terminalSettings(_ fd: Int32) throws(Failure) -> termios {
        var settings = termios()
        _ = try retrying { tcgetattr(fd, &settings) }
        return settings
    }

    /// Puts `settings` in force now (async-signal-safe: a crash handler restores with it).
    @discardableResult
    static func setTerminalSettings(_ fd: Int32, _ settings: termios) -> Bool {
        var settings = settings
        return tcsetattr(fd, TCSANOW, &settings) == 0
    }

    /// `settings` made raw: every byte as it is typed (Ctrl+C and Ctrl+Z included), nothing echoed,
    /// reads that return at once, output as written.
    static func rawTerminalSettings(from settings: termios) -> termios {
        var raw = settings
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag = (raw.c_cflag & ~tcflag_t(CSIZE | PARENB)) | tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    /// A terminal's size in cells and, where it says, in pixels (0 where it does not).
    static func terminalSize(_ fd: Int32) -> (columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row), Int(size.ws_xpixel), Int(size.ws_ypixel))
    }

    /// Calls `handler` on `signal` (with the signal blocked meanwhile); SIG_DFL given as nil.
    static func handleSignal(_ signal: Int32, _ handler: (@convention(c) (Int32) -> Void)?) {
        var action = sigaction()
        if let handler { action.__sigaction_handler.sa_handler = handler } else { action.__sigaction_handler.sa_handler = SIG_DFL }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        _ = sigaction(signal, &action, nil)
    }

    /// One write from a signal handler: no retry, no error, nothing but the call.
    static func signalSafeWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) {
        _ = Glibc.write(fd, bytes, count)
    }

    /// Raises `signal` in this process again (after a handler put back the default action).
    static func raise(_ signal: Int32) { _ = Glibc.raise(signal) }

    /// A pipe whose ends do not block: a signal handler writes a byte to wake a loop polling the other.
    static func wakePipe() throws(Failure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        _ = try retrying { pipe(&ends) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    /// Waits up to `milliseconds` for input on any of `fds`; which of them have it.
    static func poll(_ fds: [Int32], milliseconds: Int32) throws(Failure) -> [Bool] {
        var pollers = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = try retrying { Glibc.poll(&pollers, nfds_t(pollers.count), milliseconds) }
        return pollers.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
    }

    /// Closes a descriptor this process owns (its errors say nothing useful then).
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}
