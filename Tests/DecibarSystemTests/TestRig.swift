import Foundation
import Synchronization

/// Scratch folders this process made. They go at exit, not at the end of each test: a server or
/// player a test stops may still be closing its files then, and every test is over at exit.
private let scratchFolders = Mutex<[String]>([])
private let removesScratchFoldersAtExit: Void = {
    atexit {
        for folder in scratchFolders.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) }
    }
}()

/// The real parts the system tests run against: the built `decibar`, private PulseAudio servers,
/// the Xvfb display of the test environment, and command-line tools (sox, paplay, pactl, ffmpeg).
enum TestRig {
    static let packageRoot: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The `decibar` binary built next to the test bundle.
    static let decibar: String = {
        if let path = ProcessInfo.processInfo.environment["DECIBAR_BINARY"] { return path }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for folder in [runner, runner.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent("decibar").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return packageRoot + "/.build/debug/decibar"
    }()

    static var display: String? { ProcessInfo.processInfo.environment["DISPLAY"] }

    static var hasDisplay: Bool { display?.isEmpty == false }

    /// Whether a process's resident memory is its own: a sanitizer's allocator keeps what is freed
    /// (AddressSanitizer's quarantine holds 256 MB of it, ThreadSanitizer its history), so under one
    /// a memory bound is printed, not checked; `make test` checks it.
    static var measuresMemory: Bool { ProcessInfo.processInfo.environment["DECIBAR_SANITIZER"] == nil }

    /// Set by `Scripts/with-test-env.sh` (what `make test` and CI run): every real part must be
    /// there, so a missing one fails the tests that need it instead of skipping them.
    static var inTestEnvironment: Bool { ProcessInfo.processInfo.environment["DECIBAR_TEST_ENV"] == "1" }

    /// The real parts a suite can need.
    enum Part {
        case display, ffmpeg
    }

    /// Whether a suite that needs `part` runs: always in the test environment (where a missing part
    /// is a failure), elsewhere (a bare `swift test`) only when the part is there.
    static func canRun(needing part: Part) -> Bool {
        if inTestEnvironment { return true }
        switch part {
        case .display: return hasDisplay
        case .ffmpeg: return FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")
        }
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Runs a tool to completion; returns its status and stdout. Fails the test's expectations elsewhere.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
                    input: Data? = nil) throws -> (status: Int32, output: Data, error: String) {
        let output = Pipe()
        let errors = Pipe()
        let process = Process(tool: tool, arguments: arguments, environment: environment, output: output, errors: errors)
        let feed = input.map { _ in Pipe() }
        if let feed { process.standardInput = feed }
        try process.startAlone()
        if let feed, let input {
            // Written on a thread of its own: a tool reads its input while it writes its output.
            Thread {
                try? feed.fileHandleForWriting.write(contentsOf: input)
                try? feed.fileHandleForWriting.close()
            }.start()
        }
        // Read both pipes to the end before waiting, so a chatty tool cannot block on a full pipe.
        let errorData = ErrorCollector()
        let errorReader = Thread { errorData.data.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
        errorReader.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitForExit()
        while !errorReader.isFinished { usleep(1000) }
        let errorText = errorData.data.withLock { String(decoding: $0, as: UTF8.self) }
        return (process.terminationStatus, data, errorText)
    }

    /// Waits until `condition` holds, looking every 10 ms, at most `timeout` seconds; whether it held.
    @discardableResult
    static func wait(timeout: Double, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = now() + timeout
        while true {
            if try condition() { return true }
            guard now() < deadline else { return false }
            usleep(10_000)
        }
    }

    /// A new scratch folder, removed with everything in it when the test process exits.
    static func temporaryDirectory() throws -> String {
        // Short paths: PulseAudio's socket path must fit in 108 bytes. In TMPDIR, which the test
        // runner points at a folder of the run's own (swept at the end, whatever died).
        let parent = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((parent.hasSuffix("/") ? parent : parent + "/").appending("dbt.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RigError("cannot make a temporary directory")
        }
        let path = String(cString: made)
        _ = removesScratchFoldersAtExit
        scratchFolders.withLock { $0.append(path) }
        return path
    }

    /// A stereo float WAV at 48 kHz of `expression`, an ffmpeg aevalsrc expression of t (seconds)
    /// or n (the sample): one for both channels, or `left|right`.
    static func makeSignal(at path: String, _ expression: String, seconds: Double) throws {
        // Commas inside the expression would end the filter's argument.
        let escaped = expression.replacingOccurrences(of: ",", with: "\\,")
        let layout = expression.contains("|") ? "" : ":c=stereo"
        let made = try run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                                      "aevalsrc=\(escaped):s=48000\(layout):d=\(seconds)", "-c:a", "pcm_f32le", path])
        guard made.status == 0 else { throw RigError("ffmpeg: \(made.error)") }
    }

    /// A stereo float WAV of a sine made by sox: `amplitude` (0.5 = -6.02 dBFS peak), `seconds` long.
    static func makeTone(at path: String, amplitude: Double, frequency: Int = 1000, seconds: Double,
                         sampleRate: Int = 48000, channels: Int = 2) throws {
        let result = try run("sox", ["-n", "-r", "\(sampleRate)", "-c", "\(channels)", "-e", "floating-point",
                                     "-b", "32", path, "synth", "\(seconds)", "sine", "\(frequency)",
                                     "vol", "\(amplitude)"])
        guard result.status == 0 else { throw RigError("sox failed: \(result.error)") }
    }
}

extension Process {
    /// A process for `tool` (found on PATH, or an absolute path) with the test's environment plus `environment`.
    convenience init(tool: String, arguments: [String], environment: [String: String], output: Any?, errors: Any?) {
        self.init()
        executableURL = URL(fileURLWithPath: "/usr/bin/env")
        self.arguments = [tool] + arguments
        self.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        standardOutput = output
        standardError = errors
        standardInput = FileHandle.nullDevice
    }

    /// Starts the process, one start at a time in the whole test run: Foundation's `run()` has
    /// crashed (a memcpy in its setup) when suites on several threads started processes at once.
    /// Every other descriptor of the test process is marked close-on-exec first, so that a child
    /// never holds another command's pipe open (a long-lived one, a bus or a server, would keep
    /// that command's reader from ever seeing the end of its output). The child starts with no
    /// signal blocked (`withCleanSignalMask`).
    func startAlone() throws {
        try Process.spawnLock.withLock { _ in
            Process.closeDescriptorsOnExec()
            try Process.withCleanSignalMask { try run() }
        }
    }

    /// Runs `body` (which starts a child) with no signal blocked on this thread. A child inherits
    /// the blocked signals of the thread that starts it, and the test process's threads block most
    /// of them (the concurrency pool's threads block every asynchronous signal): a server started
    /// from one then ignored the SIGTERM meant to stop it (SigBlk fffffffe3bfaea27), and stayed
    /// behind after the run. Foundation's Process offers no way to set the child's mask.
    static func withCleanSignalMask<Result>(_ body: () throws -> Result) rethrows -> Result {
        var none = sigset_t()
        sigemptyset(&none)
        var kept = sigset_t()
        pthread_sigmask(SIG_SETMASK, &none, &kept)
        defer { pthread_sigmask(SIG_SETMASK, &kept, nil) }
        return try body()
    }

    /// Sets FD_CLOEXEC on every open descriptor above stderr. (The handles a child is given are
    /// dup2'ed onto its 0, 1 and 2, which clears the flag there.)
    static func closeDescriptorsOnExec() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for name in names {
            guard let descriptor = Int32(name), descriptor > 2 else { continue }
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    static let spawnLock = Mutex(())

    /// Waits by polling: Foundation's waitUntilExit spins a run loop at full CPU off the main thread.
    func waitForExit() {
        while isRunning { usleep(2_000) }
    }

    /// Ends the process for sure (children may inherit a blocked SIGTERM) and reaps it.
    func kill() {
        if isRunning { Glibc.kill(processIdentifier, SIGKILL) }
        waitForExit()
    }
}

private final class ErrorCollector: Sendable {
    let data = Mutex(Data())
}

struct RigError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
