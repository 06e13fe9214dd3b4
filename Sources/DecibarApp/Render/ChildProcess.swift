import DecibarCore
import Foundation
import Synchronization

/// A program run by Decibar (ffmpeg), fed on its standard input, with its standard error kept.
///
/// Foundation's `Process` starts the child in a process group of its own and offers only blocking
/// writes; a stalled child then made Decibar deaf to Ctrl-C, and a child that wrote more than a
/// pipe's worth to stderr deadlocked against a parent that read it only at the end. Here:
/// - the child stays in Decibar's process group (a closed terminal or a group kill ends both), with
///   SIGINT blocked so that Ctrl-C meant for Decibar does not cut a recording short: Decibar decides
///   and stops the child itself;
/// - writes wait in `poll` and give up when `isInterrupted` turns true or the child stops reading
///   for `writeTimeout` seconds;
/// - standard error is read as it comes by a thread of its own, keeping the last few kilobytes.
final class ChildProcess {
    let program: String
    let processID: pid_t
    private var input: Int32
    private let errorTail: ErrorTail
    private let errorReader: Thread
    private var status: Int32?
    private let isInterrupted: () -> Bool
    /// Seconds a write may wait for the child to read before it counts as stalled.
    let writeTimeout: Double

    enum WriteOutcome {
        case written
        /// The child closed its input or ended.
        case closed
        case interrupted
        case stalled
    }

    /// Starts `name` (looked up on PATH) with `arguments`. `feedsInput`: give it a pipe on its
    /// standard input (otherwise /dev/null). `environment`: variables set for it, over Decibar's.
    init(_ name: String, arguments: [String], feedsInput: Bool, environment: [String: String] = [:], writeTimeout: Double = 10,
         isInterrupted: @escaping () -> Bool = { false }, missing: String) throws(CommandFailure) {
        guard let program = Self.findProgram(name) else { throw CommandFailure(message: missing) }
        // A child that dies makes our next write fail with EPIPE, which is reported; the signal
        // would end Decibar without a word.
        signal(SIGPIPE, SIG_IGN)
        self.program = program
        self.writeTimeout = writeTimeout
        self.isInterrupted = isInterrupted

        var inputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard Self.makePipe(&errorPipe) else { throw CommandFailure(message: "cannot start \(name): \(Self.errnoText())") }
        if feedsInput {
            guard Self.makePipe(&inputPipe) else {
                close(errorPipe[0]); close(errorPipe[1])
                throw CommandFailure(message: "cannot start \(name): \(Self.errnoText())")
            }
            // A frame is megabytes; a 1 MB pipe (Linux's default maximum) instead of 64 KB cuts the
            // wake-ups on both sides sixteenfold. F_SETPIPE_SZ is 1031; failure only costs speed.
            _ = fcntl(inputPipe[1], 1031, 1 << 20)
        }

        let spawned = Self.spawn(program, arguments: arguments, environment: environment,
                                 input: feedsInput ? inputPipe[0] : nil, error: errorPipe[1])
        close(errorPipe[1])
        if feedsInput { close(inputPipe[0]) }
        guard spawned.error == 0 else {
            close(errorPipe[0])
            if feedsInput { close(inputPipe[1]) }
            throw CommandFailure(message: "cannot start \(program): \(String(cString: strerror(spawned.error)))")
        }
        processID = spawned.pid
        input = inputPipe[1]
        if feedsInput { _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK) }

        let tail = ErrorTail()
        errorTail = tail
        errorReader = Self.startReading(errorPipe[0], into: tail)
    }

    /// Starts `program` with `input` (else /dev/null) as its standard input, `error` as its
    /// standard error, and /dev/null as its standard output; its pid, or `posix_spawn`'s error.
    private static func spawn(_ program: String, arguments: [String], environment: [String: String], input: Int32?,
                              error: Int32) -> (pid: pid_t, error: Int32) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, error, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGINT)
        posix_spawnattr_setsigmask(&attributes, &blocked)
        // Decibar ignores SIGPIPE (and SIGXFSZ); ignored signals would stay ignored in the child.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGXFSZ, SIGTERM, SIGINT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let inherited = ProcessInfo.processInfo.environment.filter { environment[$0.key] == nil }
        let envp = inherited.merging(environment) { $1 }.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        return (pid, code)
    }

    /// Reads the child's standard error on a thread of its own until the child closes it, keeping
    /// the last of it in `tail`.
    private static func startReading(_ descriptor: Int32, into tail: ErrorTail) -> Thread {
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = (try? chunk.withUnsafeMutableBytes { raw throws(Posix.Failure) in try Posix.read(descriptor, into: raw) }) ?? 0
                guard count > 0 else { break }
                tail.append(chunk[0 ..< count])
            }
            close(descriptor)
        }
        reader.name = "decibar-child-stderr"
        reader.start()
        return reader
    }

    deinit {
        if status == nil { stop() }
        if input >= 0 { close(input) }
    }

    /// Writes all of `bytes` to the child's standard input.
    func write(_ bytes: UnsafeRawBufferPointer) -> WriteOutcome {
        guard input >= 0 else { return .closed }
        var offset = 0
        var waitingSince: Double?
        while offset < bytes.count {
            let count: Int
            do {
                count = try Posix.write(input, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            } catch {
                guard error == EAGAIN else { return .closed }
                count = -1
            }
            if count > 0 {
                offset += count
                waitingSince = nil
                continue
            }
            guard count < 0 else { return .closed }
            // The pipe is full: wait for the child to read, a tenth of a second at a time.
            if isInterrupted() { return .interrupted }
            let now = MonotonicClock.now()
            if now - (waitingSince ?? now) > writeTimeout { return .stalled }
            waitingSince = waitingSince ?? now
            var descriptor = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, 100)
        }
        return .written
    }

    func write(_ bytes: [UInt8]) -> WriteOutcome {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Ends the child's input and waits for it to finish; its exit status (128 + signal if a signal
    /// ended it). An interruption or a child that will not end within `timeout` stops it.
    func finish(timeout: Double = .infinity) -> Int32 {
        closeInput()
        let deadline = MonotonicClock.now() + timeout
        while status == nil {
            if reap() { break }
            if isInterrupted() || MonotonicClock.now() > deadline {
                stop()
                break
            }
            MonotonicClock.sleep(seconds: 0.005)
        }
        waitForErrorReader()
        return status ?? 1
    }

    /// Stops the child now: SIGTERM, then SIGKILL if it has not ended within a second (a stopped
    /// process only sees the latter).
    func stop() {
        closeInput()
        guard status == nil, !reap() else { return }
        kill(processID, SIGTERM)
        let deadline = MonotonicClock.now() + 1
        while !reap() {
            if MonotonicClock.now() > deadline {
                kill(processID, SIGKILL)
                var raw: Int32 = 0
                _ = waitpid(processID, &raw, 0)
                status = 128 + SIGKILL
                break
            }
            MonotonicClock.sleep(seconds: 0.005)
        }
        waitForErrorReader()
    }

    /// The last line the child wrote to standard error, or its status when it wrote none.
    var lastErrorLine: String {
        let text = String(decoding: errorTail.bytes, as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).last.map { String($0).escapingControlCharacters } ?? ""
    }

    /// Runs a program to its end with no input; its status and the last line of its stderr.
    static func run(_ name: String, _ arguments: [String], missing: String,
                    isInterrupted: @escaping () -> Bool = { false }) throws(CommandFailure) -> (status: Int32, lastLine: String) {
        let child = try ChildProcess(name, arguments: arguments, feedsInput: false, isInterrupted: isInterrupted, missing: missing)
        let status = child.finish()
        return (status, child.lastErrorLine)
    }

    static func findProgram(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// Collects the child's status if it has ended.
    private func reap() -> Bool {
        if status != nil { return true }
        let raw: Int32
        do {
            guard let ended = try Posix.reap(processID) else { return false }
            raw = ended
        } catch {
            // Already reaped elsewhere: nothing more to learn.
            status = 1
            return true
        }
        let signal = raw & 0x7F
        status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        return true
    }

    private func waitForErrorReader() {
        // The pipe ends when the child does (unless a grandchild holds it): bounded either way.
        let deadline = MonotonicClock.now() + 2
        while !errorReader.isFinished && MonotonicClock.now() < deadline { MonotonicClock.sleep(seconds: 0.002) }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    /// A pipe whose ends are not inherited by programs started later (the child gets copies).
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }
}

/// The last bytes a child wrote to standard error, shared with the thread that reads them.
private final class ErrorTail: Sendable {
    private let storage = Mutex<[UInt8]>([])
    static let limit = 8192

    func append(_ bytes: ArraySlice<UInt8>) {
        storage.withLock { kept in
            kept.append(contentsOf: bytes)
            if kept.count > Self.limit { kept.removeFirst(kept.count - Self.limit) }
        }
    }

    var bytes: [UInt8] { storage.withLock { $0 } }
}
