import Foundation

/// The ffmpeg program, fed raw frames on its standard input through a large pipe.
final class FFmpegPipe {
    private let process = Process()
    private let input: FileHandle
    private let errors = Pipe()

    /// Starts `ffmpeg arguments`; fails in one line when the program is missing.
    init(arguments: [String], purpose: String) throws {
        guard let program = Self.findProgram("ffmpeg") else {
            throw CommandFailure(message: "\(purpose) needs the ffmpeg program (apt-get install ffmpeg)")
        }
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let frames = Pipe()
        // A frame is megabytes; a 1 MB pipe (Linux's default maximum) instead of 64 KB cuts the
        // wake-ups on both sides sixteenfold. F_SETPIPE_SZ is 1031; failure only costs speed.
        _ = fcntl(frames.fileHandleForWriting.fileDescriptor, 1031, 1 << 20)
        process.standardInput = frames
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        // If ffmpeg dies, writing must fail with EPIPE (and be reported) rather than kill us.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        input = frames.fileHandleForWriting
    }

    var isRunning: Bool { process.isRunning }

    /// Writes all of `bytes`; false once ffmpeg stopped reading.
    func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(input.fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    /// Ends the input and waits; ffmpeg's status and the last line it wrote to stderr.
    func finish() -> (status: Int32, lastLine: String) {
        try? input.close()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        while process.isRunning { usleep(5_000) }
        return (process.terminationStatus, text.split(separator: "\n").last.map(String.init) ?? "")
    }

    /// Stops ffmpeg without waiting for it to finish its file.
    func stop() {
        try? input.close()
        if process.isRunning { process.terminate() }
        while process.isRunning { usleep(5_000) }
    }

    /// Runs ffmpeg (or another program) to its end; its status and the last line of its stderr.
    static func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, lastLine: String) {
        guard let program = findProgram(name) else { throw CommandFailure(message: "\(name) not found") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        while process.isRunning { usleep(5_000) }
        return (process.terminationStatus, text.split(separator: "\n").last.map(String.init) ?? "")
    }

    static func findProgram(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
