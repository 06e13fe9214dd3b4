import Foundation
import Synchronization

/// A `decibar` process (or another tool's) whose stdout lines are collected, each stamped with the moment it arrived.
final class RunningCommand {
    struct Line: Sendable {
        var receivedAt: Double
        var text: String
    }

    let process: Process
    /// Shared with the reader threads; a class because a Mutex itself cannot be copied into a closure.
    private final class Collected: Sendable {
        let lines = Mutex<[Line]>([])
        let errorText = Mutex(Data())
    }

    private let collected = Collected()
    private let readers: [Thread]

    init(_ arguments: [String], environment: [String: String], tool: String = TestRig.decibar) throws {
        let output = Pipe()
        let errors = Pipe()
        process = Process(tool: tool, arguments: arguments, environment: environment, output: output, errors: errors)
        let collected = self.collected
        readers = [
            Thread {
                var pending = Data()
                while true {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    let arrived = TestRig.now()
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let text = String(decoding: pending[pending.startIndex ..< newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex ... newline)
                        collected.lines.withLock { $0.append(Line(receivedAt: arrived, text: text)) }
                    }
                }
            },
            Thread {
                while true {
                    let chunk = errors.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    collected.errorText.withLock { $0.append(chunk) }
                }
            },
        ]
        try process.startAlone()
        readers.forEach { $0.start() }
    }

    deinit {
        process.kill()
    }

    var output: [Line] { collected.lines.withLock { $0 } }
    var standardError: String { collected.errorText.withLock { String(decoding: $0, as: UTF8.self) } }
    var isRunning: Bool { process.isRunning }

    /// Where each of the process's threads is, for a message about a process that says nothing:
    /// "name state wait-channel" per thread, from /proc.
    var threadStates: String {
        let pid = process.processIdentifier
        return ProcessThread.threads(of: pid).map { thread in
            let channel = (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread.id)/wchan", encoding: .utf8)) ?? "?"
            return "\(thread.name) \(thread.state) \(channel.trimmingCharacters(in: .whitespacesAndNewlines))"
        }.joined(separator: "; ")
    }

    /// Waits for the process to end by itself, up to `timeout` seconds; returns its status or nil.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = TestRig.now() + timeout
        while process.isRunning && TestRig.now() < deadline { usleep(10_000) }
        guard !process.isRunning else { return nil }
        // Let the readers drain the last lines.
        let drainDeadline = TestRig.now() + 2
        while readers.contains(where: { !$0.isFinished }) && TestRig.now() < drainDeadline { usleep(5_000) }
        return process.terminationStatus
    }

    /// Waits for the first line after `after` that satisfies `matches`, up to `timeout` seconds.
    func firstLine(after: Double = 0, timeout: Double, where matches: (Line) -> Bool) -> Line? {
        let deadline = TestRig.now() + timeout
        repeat {
            if let line = output.first(where: { $0.receivedAt >= after && matches($0) }) { return line }
            usleep(5_000)
        } while TestRig.now() < deadline
        return nil
    }

    /// Asks the process to end (SIGTERM), as a user would; kills it if it does not within 2 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = TestRig.now() + 2
        while process.isRunning && TestRig.now() < deadline { usleep(2_000) }
        process.kill()
    }
}

/// One parsed line of `decibar levels`.
struct LevelsLine {
    var time: Double
    var channels: Int
    var rmsDB: [Double]
    var peakDB: [Double]

    init?(_ text: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let time = (object["t"] as? NSNumber)?.doubleValue,
              let channels = (object["channels"] as? NSNumber)?.intValue,
              let rms = object["rms_db"] as? [NSNumber], let peak = object["peak_db"] as? [NSNumber]
        else { return nil }
        self.time = time
        self.channels = channels
        self.rmsDB = rms.map(\.doubleValue)
        self.peakDB = peak.map(\.doubleValue)
    }

    /// True when every channel reads `rms` and `peak` within `tolerance` dB.
    func reads(rms: Double, peak: Double, tolerance: Double) -> Bool {
        rmsDB.allSatisfy { abs($0 - rms) <= tolerance } && peakDB.allSatisfy { abs($0 - peak) <= tolerance }
    }
}
