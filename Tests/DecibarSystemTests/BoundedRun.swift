import Foundation
import Synchronization

/// How a command run to its end (or stopped at a deadline) went.
struct Outcome: CustomStringConvertible {
    var status: Int32
    /// Set when a signal ended the process (a crash or a kill), with `status` the signal.
    var signaled: Bool
    var timedOut: Bool
    var output: Data
    var error: String
    var seconds: Double

    /// Lines on stderr, without the informational "playing ..." lines of `play`.
    var errorLines: [String] {
        error.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("decibar: playing ") }
    }

    /// Exit 0, or a non-zero status with exactly one line on stderr; never a signal or a hang.
    var isOrderly: Bool {
        guard !signaled, !timedOut else { return false }
        return status == 0 || (errorLines.count == 1 && errorLines[0].hasPrefix("decibar: "))
    }

    var description: String {
        let how = timedOut ? "timed out" : signaled ? "signal \(status)" : "status \(status)"
        return "\(how) after \(String(format: "%.2f", seconds)) s, stderr: \(error.prefix(600))"
    }
}

extension TestRig {
    /// Runs `tool` with a deadline: killed (and marked) if it is still running after `timeout` s.
    static func runBounded(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
                           directory: String? = nil, timeout: Double = 30) throws -> Outcome {
        let output = Pipe()
        let errors = Pipe()
        let process = Process(tool: tool, arguments: arguments, environment: environment, output: output, errors: errors)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let start = now()
        try process.startAlone()
        let collected = Collected()
        let readers = [
            // Read, then store: holding the lock while reading would block the deadline's look below.
            Thread { let data = output.fileHandleForReading.readDataToEndOfFile(); collected.output.withLock { $0 = data } },
            Thread { let data = errors.fileHandleForReading.readDataToEndOfFile(); collected.error.withLock { $0 = data } },
        ]
        readers.forEach { $0.start() }
        var timedOut = false
        while process.isRunning {
            if now() - start > timeout {
                timedOut = true
                process.kill()
                break
            }
            usleep(2_000)
        }
        let seconds = now() - start
        // The pipes close when the process (and any child holding them) is gone.
        let drainDeadline = now() + 5
        while readers.contains(where: { !$0.isFinished }) && now() < drainDeadline { usleep(2_000) }
        return Outcome(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                       timedOut: timedOut, output: collected.output.withLock { $0 },
                       error: collected.error.withLock { String(decoding: $0, as: UTF8.self) }, seconds: seconds)
    }

    /// Runs `decibar` with a deadline.
    static func decibar(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
                        timeout: Double = 30) throws -> Outcome {
        try runBounded(decibar, arguments, environment: environment, directory: directory, timeout: timeout)
    }

    /// Every entry under `folder` (hidden ones included) with its kind, size and a hash of its bytes.
    static func fingerprint(of folder: String) throws -> [String: String] {
        var result: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { throw RigError("cannot list \(folder)") }
        while let name = walker.nextObject() as? String {
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                let data = FileManager.default.contents(atPath: path) ?? Data()
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                result[name] = "file \(data.count) \(String(hash, radix: 16))"
            case S_IFDIR: result[name] = "folder"
            case S_IFLNK: result[name] = "link " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "")
            default: result[name] = "other \(info.st_mode & S_IFMT)"
            }
        }
        return result
    }

    /// Names in `folder` that are Decibar's partial files or folders.
    static func partials(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".decibar-") || $0.contains(".partial") }
    }

    /// Makes a media file with the ffmpeg program.
    static func ffmpeg(_ arguments: [String]) throws {
        let made = try run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + arguments)
        guard made.status == 0 else { throw RigError("ffmpeg \(arguments.joined(separator: " ")): \(made.error)") }
    }
}

private final class Collected: Sendable {
    let output = Mutex(Data())
    let error = Mutex(Data())
}
